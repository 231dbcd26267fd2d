// `labbook grade`: grading a class from the command line. The grading itself (build, check,
// run, judge, audit, score, write) is grading::grade_class (grading/grade_pipeline.h); this file
// checks the machine and prints. With --task, one task of a Slurm job array grades its slice of
// the class alone and leaves the class files to `labbook grade --collect` (grade_batch.cpp).
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iterator>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

#include "build_log.h"
#include "class_files.h"
#include "exercise.h"
#include "gpu_probe.h"
#include "grade_commands.h"
#include "grade_pipeline.h"
#include "install_layout.h"
#include "labbook/model/error.h"
#include "nvcc_toolchain.h"
#include "progress_bar.h"
#include "rubric.h"
#include "runner_gpus.h"
#include "sandbox.h"

namespace labbook::cli {

namespace fs = std::filesystem;

namespace {

/// The GPUs to grade on, one runner each (grading::runner_gpus() of CUDA_VISIBLE_DEVICES and
/// the driver's GPU count).
std::vector<std::string> visible_gpus() {
  std::error_code error;
  std::size_t count = 0;
  if (fs::is_directory("/proc/driver/nvidia/gpus", error))
    count = static_cast<std::size_t>(
        std::distance(fs::directory_iterator("/proc/driver/nvidia/gpus", error), fs::directory_iterator()));
  return grading::runner_gpus(std::getenv("CUDA_VISIBLE_DEVICES"), count);
}

/// As root the sandbox runs as an unprivileged uid, which must be able to reach the students'
/// folders through every folder above them: say so at once rather than fail every student.
void check_reachable(const std::string& out_dir) {
  if (geteuid() != 0) return;
  for (fs::path p = fs::absolute(out_dir); !p.empty() && p != p.root_path(); p = p.parent_path()) {
    struct stat st {};
    if (::stat(p.c_str(), &st) == 0 && !(st.st_mode & S_IXOTH))
      throw UsageError("--out " + out_dir + ": the sandbox's unprivileged users cannot enter " + p.string() +
                       "; chmod o+x it or choose another folder");
  }
}

/// Whether `asked` builds for the GPU of architecture `gpu`: the same, or its arch-specific
/// variant (sm_90a for sm_90).
bool builds_for(const std::string& asked, const std::string& gpu) {
  return asked == gpu || asked == gpu + "a" || asked == gpu + "f";
}

/// nvcc's -arch for student code (and the harness with it): that of the GPU that will run it,
/// resolved here because the build's sandbox hides the GPU from nvcc's -arch=native.
std::string student_arch(const GradeOptions& options) {
  // A build-only run starts nothing on a GPU: the architecture asked for wins, even on a node
  // whose GPU this process cannot use.
  if (options.build_only && !options.arch.empty()) return options.arch;
  std::string why;
  if (gpu_available(why)) {
    const std::string arch = gpu_architecture(why);
    if (!arch.empty()) {
      if (!options.arch.empty() && !builds_for(options.arch, arch))
        throw UsageError("--arch " + options.arch + ": the GPU here that runs the submissions is " + arch);
      return options.arch.empty() ? arch : options.arch;
    }
    if (!options.build_only) throw Error("cannot tell which architecture to build student code for: " + why);
  }
  if (!options.arch.empty()) return options.arch;
  const std::string built_for = LABBOOK_NVCC_ARCH;
  if (built_for.rfind("sm_", 0) == 0) return built_for;
  throw UsageError("no GPU here to build student code for (labbook was built for '" + built_for +
                   "'): give --arch, e.g. --arch sm_90 for an H100 or H200");
}

grading::ToolPaths tool_paths(const std::string& arch) {
  const InstallLayout& layout = install_layout();
  return {LABBOOK_NVCC, arch, layout.data, fs::path(layout.collector).parent_path().string(),
          LABBOOK_CUPTI_LIBRARY_DIR};
}

/// The progress bars on stderr.
grading::Progress progress_bars(std::optional<ProgressBar>& bar) {
  grading::Progress p;
  p.begin = [&bar](const std::string& phase, std::size_t total) { bar.emplace(phase, total); };
  p.step = [&bar](const std::string& student, const std::string& status) { bar->step(student, status); };
  p.end = [&bar] { bar->done(); };
  return p;
}

/// --build-only: one line per student, and under it the compiler's or linker's errors (the
/// whole output is in OUT/STUDENT/build.log); exit 1 when any does not build.
int print_builds(const std::vector<grading::Graded>& graded, const std::string& out_dir) {
  int failed = 0;
  for (const auto& g : graded) {
    const grading::SubmissionOutcome& o = g.outcome;
    std::string status = o.built                    ? "builds"
                         : !g.labbook_error.empty() ? "labbook failed: " + g.labbook_error
                         : !o.problem.empty()       ? "refused: " + o.problem.substr(0, o.problem.find('\n'))
                                                    : "does not build: ";
    if (!o.built && g.labbook_error.empty() && o.problem.empty()) {
      const auto errors = grading::build_errors(o.build_log);
      for (std::size_t i = 0; i < errors.size(); ++i) status += (i ? "\n    " : "") + errors[i];
      status += "\n    (all of it: " + out_dir + "/" + g.submission.student + "/build.log)";
    }
    std::printf("%s: %s\n", g.submission.student.c_str(), status.c_str());
    failed += !o.built;
  }
  return failed ? 1 : 0;
}

}  // namespace

int grade(const GradeOptions& options) {
  grading::ClassSettings settings;
  settings.exercise = exercise_named(options.exercise);
  settings.rubric = grading::load_rubric(options.rubric.empty() ? settings.exercise.rubric : options.rubric);
  const auto found = grading::find_submissions(options.submissions, settings.exercise);
  if (found.empty())
    throw UsageError("'" + options.submissions + "' holds no submission (one folder or one .cu file per student)");
  const auto submissions = task_submissions(options, found);
  settings.out_dir = options.out_dir;
  settings.force = options.force;
  settings.build_only = options.build_only;
  settings.memcheck = options.memcheck;
  settings.jobs = options.jobs;
  settings.sanitizer = (fs::path(LABBOOK_NVCC).parent_path() / "compute-sanitizer").string();
  settings.collector = install_layout().collector;
  // A student's uid follows its place in the whole class, so tasks sharing a node differ.
  settings.first_index = options.task ? *options.task * options.per_task.value_or(GradeOptions::kDefaultPerTask) : 0;
  fs::create_directories(options.out_dir);
  check_reachable(options.out_dir);
  std::string why;
  if (!options.build_only && !gpu_available(why)) {
    std::fprintf(stderr, "labbook: no GPU to run the submissions on (%s): nothing graded\n", why.c_str());
    return kExitNoGpu;
  }
  if (!grading::sandbox_available(why))
    throw Error("student code runs only in a sandbox, and none works here: " + why + " (tools/install-deps installs bubblewrap)");
  if (!options.build_only) settings.gpus = visible_gpus();
  grading::copy_rubric(options.out_dir, settings.rubric);   // what --collect scores against

  const auto runner = grading::sandbox_runner();
  const auto toolchain = grading::nvcc_toolchain(tool_paths(student_arch(options)), *runner);
  std::optional<ProgressBar> bar;
  const std::vector<grading::Graded> graded = grading::grade_class(settings, submissions, *toolchain, *runner, progress_bars(bar));
  if (options.build_only) return print_builds(graded, options.out_dir);
  std::vector<grading::Score> scores;
  for (const auto& g : graded) {
    if (g.graded_before) std::fprintf(stderr, "%s: graded before (--force grades again)\n", g.submission.student.c_str());
    if (!g.labbook_error.empty()) std::fprintf(stderr, "labbook: %s: %s\n", g.submission.student.c_str(), g.labbook_error.c_str());
    scores.push_back(g.score);
  }
  if (options.task) {   // one task of a job array: the class files wait for --collect
    std::printf("task %zu: graded %zu submissions into %s\n", *options.task, submissions.size(), options.out_dir.c_str());
    return 0;
  }
  grading::write_class_files(options.out_dir, settings.rubric, scores);
  std::printf("graded %zu submissions: %s/grades.csv\n", submissions.size(), options.out_dir.c_str());
  return 0;
}

}  // namespace labbook::cli
