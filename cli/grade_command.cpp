// `labbook exercise` and `labbook grade`: hand out an exercise; build, check, measure and score
// every submission of a class. Student code is built and run only inside the sandbox
// (grading/sandbox.h): as an unprivileged user, without network, seeing only its own folder.
// Each student's files are written atomically when that student is done, so a batch that is
// killed loses nothing already graded, and a re-run skips what is graded (unless --force).
// With --task, one task of a Slurm job array grades its slice of the class alone and leaves
// the class files to `labbook grade --collect` (grade_batch.cpp).
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "class_files.h"
#include "commands.h"
#include "exercise.h"
#include "gpu_probe.h"
#include "grade_writers.h"
#include "labbook/model/atomic_file.h"
#include "labbook/model/error.h"
#include "labbook/model/metric_catalog.h"
#include "profile_session.h"
#include "program_runner.h"
#include "quantities.h"
#include "rubric.h"
#include "sandbox.h"
#include "sheet_files.h"
#include "submission_check.h"

namespace labbook::cli {

namespace fs = std::filesystem;

namespace {

constexpr uid_t kSandboxUser = 65534;   // nobody: student code never runs as root

/// A seed per student that does not change between runs (FNV-1a of the name): the same
/// submission gets the same inputs, so grading it twice gives the same score.
std::uint64_t seed_of(const std::string& student) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : student) h = (h ^ c) * 1099511628211ull;
  return h % 1000000007ull;
}

/// The student's folder, fresh: the submission copied in, owned by the sandbox's user.
std::string prepare_work(const std::string& student_dir, const std::string& file, const std::string& name) {
  const fs::path work = fs::path(student_dir) / "work";
  fs::remove_all(work);
  fs::create_directories(work);
  fs::copy_file(file, work / name);
  if (geteuid() == 0)
    for (const auto& p : {work, work / name})
      if (::chown(p.c_str(), kSandboxUser, kSandboxUser) != 0) throw Error("cannot hand " + p.string() + " to the sandbox's user");
  return fs::absolute(work).string();
}

/// The paths the sandbox must add: /usr (the CUDA toolkit with it) is always there.
std::vector<std::string> outside_usr(const std::vector<std::string>& paths) {
  std::vector<std::string> out;
  for (const auto& p : paths)
    if (p.rfind("/usr/", 0) != 0 && fs::exists(p)) out.push_back(p);
  return out;
}

grading::SandboxRequest sandbox_request(const std::string& work, std::vector<std::string> command) {
  grading::SandboxRequest r;
  r.command = std::move(command);
  r.work_dir = work;
  r.env = {{"PATH", fs::path(LABBOOK_NVCC).parent_path().string() + ":/usr/bin:/bin"}, {"HOME", work}};
  return r;
}

/// Builds the submission and the harness with nvcc inside the sandbox. Returns the compiler's
/// output; `built` says whether an executable came out.
std::string build(const grading::Exercise& e, const std::string& work, bool& built) {
  const std::string nvcc = std::string(LABBOOK_NVCC) + " -O3 -arch=" + LABBOOK_NVCC_ARCH;
  const std::string includes = " -I" + std::string(LABBOOK_SOURCE_DIR) + "/labs/common -I" + LABBOOK_SOURCE_DIR + "/kernels";
  const std::string script = nvcc + " -c " + e.student_file + " -o submission.o && " + nvcc + includes + " -c " + e.harness +
                             " -o harness.o && " + nvcc + " harness.o submission.o -o harness -ldl";
  grading::SandboxRequest r = sandbox_request(work, {"/bin/sh", "-c", script});
  r.read_only = outside_usr({std::string(LABBOOK_SOURCE_DIR) + "/labs/common", std::string(LABBOOK_SOURCE_DIR) + "/kernels",
                             e.folder()});
  r.limits.wall_seconds = 300;
  const grading::SandboxResult result = grading::run_sandboxed(r);
  built = result.end == grading::SandboxResult::End::Exited && result.exit_code == 0 && fs::exists(work + "/harness");
  std::string log = result.out + result.err;
  if (!built && result.end != grading::SandboxResult::End::Exited) log += "\n" + result.describe();
  return log;
}

/// Why the built object is refused ("" when it is not), from readelf run outside the sandbox.
std::string check_object(const std::string& work) {
  const std::string listing = work + "/readelf.txt";
  run_program({"readelf", "-sW", "-rW", work + "/submission.o"}, {}, listing);
  return grading::object_problem(read_file(listing));
}

struct RunReport {
  grading::SubmissionOutcome outcome;
  std::string log;
};

/// Runs the harness under the collector, every run in the sandbox with the GPU.
void run_and_measure(const grading::Exercise& e, const grading::Rubric& rubric, const std::string& work,
                     const std::string& student, RunReport& run) {
  grading::SandboxResult last;
  ProfileRequest request;
  request.command = {work + "/harness", "--seed", std::to_string(seed_of(student))};
  request.cupti_metrics = cupti_metrics_for(e.metrics);
  request.work_dir = work + "/runs";
  fs::create_directories(request.work_dir);
  if (geteuid() == 0 && ::chown(request.work_dir.c_str(), kSandboxUser, kSandboxUser) != 0)
    throw Error("cannot hand " + request.work_dir + " to the sandbox's user");
  request.runner = [&](const std::vector<std::string>& command, const std::map<std::string, std::string>& env,
                       const std::string& stdout_path) {
    grading::SandboxRequest r = sandbox_request(work, command);
    for (const auto& kv : env) r.env.push_back(kv);
    r.read_only = outside_usr({fs::path(LABBOOK_COLLECTOR_PATH).parent_path().string(), LABBOOK_CUPTI_LIBRARY_DIR});
    r.gpu = true;
    r.limits.wall_seconds = 30;   // a correct run takes about a second, a metrics run two
    last = grading::run_sandboxed(r);
    run.log += last.out + last.err;
    if (!stdout_path.empty()) write_file_atomically(stdout_path, last.out);
    switch (last.end) {
      case grading::SandboxResult::End::Exited: return last.exit_code;
      case grading::SandboxResult::End::Signalled: return 128 + last.signal;
      default: return 124;   // stopped by a limit, as timeout(1) says
    }
  };
  const ProfileOutcome profiled = profile_program(request);
  grading::SubmissionOutcome& o = run.outcome;
  const std::string result_path = work + "/result.json";
  if (fs::exists(result_path)) {
    try {
      const auto j = nlohmann::json::parse(read_file(result_path));
      o.correct = j.at("correct").get<bool>();
      o.problem = j.at("problem").get<std::string>();
    } catch (const std::exception&) {
      o.correct = false;
      o.problem = "the harness's result file was unreadable (did the submission write to it?)";
    }
  } else {
    o.correct = false;
    o.problem = last.end == grading::SandboxResult::End::Exited
                    ? "the program stopped before checking its results (exit code " + std::to_string(last.exit_code) + ")"
                    : last.describe();
  }
  if (!profiled.collected) return;
  const Measurement& m = profiled.measurement;
  for (const auto& c : rubric.criteria) {
    if (c.measure.empty()) continue;
    if (c.measure == "speed_pct_of_reference") {
      const auto mine = report::range_quantity(m, e.measured_range, "time").value;
      const auto reference = report::range_quantity(m, e.reference_range, "time").value;
      if (mine && reference && *mine > 0) o.measured[c.measure] = 100.0 * *reference / *mine;
    } else if (const auto v = report::range_quantity(m, e.measured_range, c.measure).value) {
      o.measured[c.measure] = *v;
    }
  }
}

/// Grades one student, writing feedback.{md,html}, instructor.{md,html}, results.json and
/// score.json (last: its presence marks the student as graded).
grading::Score grade_one(const grading::Exercise& e, const grading::Rubric& rubric, const grading::Submission& s,
                         const std::string& student_dir) {
  RunReport run;
  grading::SubmissionOutcome& o = run.outcome;
  o.student = s.student;
  if (s.file.empty()) {
    o.build_log = "no " + e.student_file + " in the submission";
  } else {
    const std::string work = prepare_work(student_dir, s.file, e.student_file);
    o.build_log = build(e, work, o.built);
    if (o.built) {
      const std::string refused = check_object(work);
      if (!refused.empty()) {
        o.built = false;
        o.problem = refused;
      } else {
        run_and_measure(e, rubric, work, s.student, run);
      }
    }
  }
  const grading::Score score = grading::score_submission(rubric, o);
  report::write_sheet(grading::feedback_sheet(rubric, score, o, false), student_dir, "feedback");
  report::write_sheet(grading::feedback_sheet(rubric, score, o, true), student_dir, "instructor");
  write_file_atomically(student_dir + "/results.json", grading::gradescope_results(score).dump(1) + "\n");
  if (!run.log.empty()) write_file_atomically(student_dir + "/run.log", run.log);
  write_file_atomically(student_dir + "/score.json", grading::score_json(score, o).dump(1) + "\n");
  return score;
}

/// As root the sandbox runs as `nobody`, which must be able to reach the students' folders
/// through every folder above them: say so at once rather than fail every student.
void check_reachable(const std::string& out_dir) {
  if (geteuid() != 0) return;
  for (fs::path p = fs::absolute(out_dir); !p.empty() && p != p.root_path(); p = p.parent_path()) {
    struct stat st {};
    if (::stat(p.c_str(), &st) == 0 && !(st.st_mode & S_IXOTH))
      throw UsageError("--out " + out_dir + ": the sandbox's user (nobody) cannot enter " + p.string() +
                       "; chmod o+x it or choose another folder");
  }
}

}  // namespace

grading::Exercise exercise_named(const std::string& name) {
  try {
    return grading::find_exercise(std::string(LABBOOK_SOURCE_DIR) + "/labs", name);
  } catch (const Error& e) {
    throw UsageError(e.what());
  }
}

int exercise_handout(const std::string& id, const std::string& out_dir) {
  const grading::Exercise e = exercise_named(id);
  fs::create_directories(out_dir);
  write_file_atomically(out_dir + "/" + e.student_file, read_file(e.starter));
  write_file_atomically(out_dir + "/instructions.md", read_file(e.instructions));
  std::printf("%s: %s/%s (start from it) and %s/instructions.md\n", e.id.c_str(), out_dir.c_str(), e.student_file.c_str(),
              out_dir.c_str());
  return 0;
}

int grade(const GradeOptions& options) {
  const grading::Exercise e = exercise_named(options.exercise);
  const grading::Rubric rubric = grading::load_rubric(options.rubric.empty() ? e.rubric : options.rubric);
  const auto submissions = task_submissions(options, grading::find_submissions(options.submissions, e));
  fs::create_directories(options.out_dir);
  check_reachable(options.out_dir);
  std::string why;
  if (!gpu_available(why)) {
    std::fprintf(stderr, "labbook: no GPU to run the submissions on (%s): nothing graded\n", why.c_str());
    return kExitNoGpu;
  }
  if (!grading::sandbox_available(why))
    throw Error("student code runs only in a sandbox, and none works here: " + why + " (tools/install-deps installs bubblewrap)");
  grading::copy_rubric(options.out_dir, rubric);   // what --collect scores against
  std::vector<grading::Score> scores;
  std::size_t done = 0;
  for (const auto& s : submissions) {
    const std::string dir = options.out_dir + "/" + s.student;
    const std::string marker = dir + "/score.json";
    ++done;
    if (!options.force && fs::exists(marker)) {
      scores.push_back(grading::score_from_json(rubric, nlohmann::json::parse(read_file(marker))));
      std::fprintf(stderr, "[%zu/%zu] %s: graded before (--force grades again)\n", done, submissions.size(), s.student.c_str());
      continue;
    }
    fs::create_directories(dir);
    std::fprintf(stderr, "[%zu/%zu] %s: grading...\n", done, submissions.size(), s.student.c_str());
    try {
      scores.push_back(grade_one(e, rubric, s, dir));
    } catch (const std::exception& error) {   // one student's trouble never stops the batch
      grading::SubmissionOutcome o;
      o.student = s.student;
      o.problem = std::string("labbook could not grade this submission: ") + error.what();
      // No score.json: the next run tries this student again.
      scores.push_back(grading::score_submission(rubric, o));
      std::fprintf(stderr, "labbook: %s: %s\n", s.student.c_str(), error.what());
    }
    std::fprintf(stderr, "[%zu/%zu] %s: %.2f / %.2f\n", done, submissions.size(), s.student.c_str(), scores.back().total,
                 scores.back().max_total);
  }
  if (options.task) {   // one task of a job array: the class files wait for --collect
    std::printf("task %zu: graded %zu submissions into %s\n", *options.task, submissions.size(), options.out_dir.c_str());
    return 0;
  }
  grading::write_class_files(options.out_dir, rubric, scores);
  std::printf("graded %zu submissions: %s/grades.csv\n", submissions.size(), options.out_dir.c_str());
  return 0;
}

}  // namespace labbook::cli
