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
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <thread>

#include "call_audit.h"
#include "class_files.h"
#include "commands.h"
#include "exercise.h"
#include "gpu_probe.h"
#include "grade_writers.h"
#include "harness_result.h"
#include "memcheck.h"
#include "labbook/model/atomic_file.h"
#include "labbook/model/error.h"
#include "labbook/model/metric_catalog.h"
#include "profile_session.h"
#include "progress_bar.h"
#include "program_runner.h"
#include "rubric.h"
#include "sandbox.h"
#include "sheet_files.h"
#include "submission_check.h"

namespace labbook::cli {

namespace fs = std::filesystem;

namespace {

/// As root, each student's code runs as a uid of its own: kSandboxUidBase + the student's
/// place in the class. No student can touch another's files, and RLIMIT_NPROC, which counts
/// every task of a uid, limits each sandbox alone when builds run side by side. The range lies
/// above what Debian (< 65536) and systemd's containers (524288-1879048191) hand out.
constexpr uid_t kSandboxUidBase = 2000000000;

/// A seed per student that does not change between runs (FNV-1a of the name): the same
/// submission gets the same inputs, so grading it twice gives the same score.
std::uint64_t seed_of(const std::string& student) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : student) h = (h ^ c) * 1099511628211ull;
  return h % 1000000007ull;
}

/// The student's folder, fresh: the submission copied in, owned by the sandbox's user.
std::string prepare_work(const std::string& student_dir, const std::string& file, const std::string& name, uid_t uid) {
  const fs::path work = fs::path(student_dir) / "work";
  fs::remove_all(work);
  fs::create_directories(work);
  fs::copy_file(file, work / name);
  if (geteuid() == 0)
    for (const auto& p : {work, work / name})
      if (::chown(p.c_str(), uid, uid) != 0) throw Error("cannot hand " + p.string() + " to the sandbox's user");
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
  // Relocatable device code: a submission may launch child grids, which the collector counts.
  const std::string nvcc = std::string(LABBOOK_NVCC) + " -O3 -rdc=true -arch=" + LABBOOK_NVCC_ARCH;
  const std::string includes = " -I" + std::string(LABBOOK_SOURCE_DIR) + "/labs/common -I" + LABBOOK_SOURCE_DIR + "/kernels";
  const std::string script = nvcc + " -c " + e.student_file + " -o submission.o && " + nvcc + includes + " -c " + e.harness +
                             " -o harness.o && " + nvcc + " harness.o submission.o -o harness";
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

/// Why the built object is refused ("" when it is not), from readelf and objdump run outside
/// the sandbox.
std::string check_object(const std::string& work) {
  const std::string listing = work + "/readelf.txt", disassembly = work + "/objdump.txt";
  run_program({"readelf", "-sW", "-rW", work + "/submission.o"}, {}, listing);
  if (std::string problem = grading::object_problem(read_file(listing)); !problem.empty()) return problem;
  run_program({"objdump", "-d", "--no-show-raw-insn", work + "/submission.o"}, {}, disassembly);
  return grading::host_code_problem(read_file(disassembly));
}

struct RunReport {
  grading::SubmissionOutcome outcome;
  std::string log;
  bool stopped = false;   ///< a run was stopped by a limit (time, output, processes)
};

/// The harness's result.json of every run, in run order (the trace run first). Each run of
/// the program (trace, then one per metrics pass) checks its results again.
struct HarnessRuns {
  std::vector<grading::HarnessResult> results;
  std::string missing;   ///< why a run left no result, if one did not
};

/// The verdict over every run: right only if every run checked its results and found them
/// right; the first wrong run's problem, or why a run checked nothing, otherwise.
void judge_results(const HarnessRuns& runs, grading::SubmissionOutcome& o) {
  for (const auto& r : runs.results)
    if (!r.correct) {
      o.correct = false;
      o.problem = r.problem;
      return;
    }
  o.correct = runs.missing.empty() && !runs.results.empty();
  if (!*o.correct) o.problem = runs.missing.empty() ? "the program was not run" : runs.missing;
}

/// The harness's command line: its seed (the student's) and the rubric's tolerances.
std::vector<std::string> harness_command(const grading::Rubric& rubric, const std::string& work, const std::string& student) {
  std::vector<std::string> command = {work + "/harness", "--seed", std::to_string(seed_of(student))};
  if (const grading::Criterion* c = rubric.correctness())
    for (const auto& [flag, value] : {std::pair{"--atol", c->absolute_tolerance}, std::pair{"--rtol", c->relative_tolerance}}) {
      char text[32];
      std::snprintf(text, sizeof text, "%.17g", value);
      command.insert(command.end(), {flag, text});
    }
  return command;
}

/// A sandboxed run of the harness on one GPU (`gpu`: a CUDA_VISIBLE_DEVICES entry).
grading::SandboxRequest harness_request(const std::string& work, std::vector<std::string> command, const std::string& gpu) {
  grading::SandboxRequest r = sandbox_request(work, std::move(command));
  // Every module loaded before the first call, so that no call's time holds a module load.
  r.env.push_back({"CUDA_MODULE_LOADING", "EAGER"});
  r.env.push_back({"CUDA_VISIBLE_DEVICES", gpu});
  r.gpu = true;
  r.limits.wall_seconds = 60;   // a correct run takes a few seconds, a metrics run a few more
  return r;
}

/// Runs the harness under the collector, every run in the sandbox on `gpu`, then audits its
/// calls against what the collector saw (grading/call_audit.h).
void run_and_measure(const grading::Exercise& e, const grading::Rubric& rubric, const std::string& work,
                     const std::string& student, uid_t uid, const std::string& gpu, RunReport& run) {
  ProfileRequest request;
  request.command = harness_command(rubric, work, student);
  request.cupti_metrics = grading::with_combining_weights(cupti_metrics_for(e.metrics));
  request.work_dir = work + "/runs";
  fs::create_directories(request.work_dir);
  if (geteuid() == 0 && ::chown(request.work_dir.c_str(), uid, uid) != 0)
    throw Error("cannot hand " + request.work_dir + " to the sandbox's user");
  HarnessRuns runs;
  request.runner = [&](const std::vector<std::string>& command, const std::map<std::string, std::string>& env,
                       const std::string& stdout_path) {
    grading::SandboxRequest r = harness_request(work, command, gpu);
    for (const auto& kv : env) r.env.push_back(kv);
    r.read_only = outside_usr({fs::path(LABBOOK_COLLECTOR_PATH).parent_path().string(), LABBOOK_CUPTI_LIBRARY_DIR});
    const std::string result_path = work + "/result.json";
    fs::remove(result_path);
    const grading::SandboxResult last = grading::run_sandboxed(r);
    run.log += last.out + last.err;
    if (!stdout_path.empty()) write_file_atomically(stdout_path, last.out);
    if (fs::exists(result_path)) {
      runs.results.push_back(grading::parse_harness_result(read_file(result_path), result_path));
    } else if (runs.missing.empty()) {
      runs.missing = last.end == grading::SandboxResult::End::Exited
                         ? "the program stopped before checking its results (exit code " + std::to_string(last.exit_code) + ")"
                         : last.describe();
    }
    switch (last.end) {
      case grading::SandboxResult::End::Exited: return last.exit_code;
      case grading::SandboxResult::End::Signalled: return 128 + last.signal;
      default: run.stopped = true; return 124;   // stopped by a limit, as timeout(1) says
    }
  };
  const ProfileOutcome profiled = profile_program(request);
  grading::SubmissionOutcome& o = run.outcome;
  judge_results(runs, o);
  if (!profiled.collected || runs.results.empty()) return;
  std::vector<std::string> quantities;
  for (const auto& c : rubric.criteria)
    if (!c.measure.empty()) quantities.push_back(c.measure);
  // The trace run's calls: its times are the program's own, not slowed by counters.
  const grading::CallAudit audit = grading::audit_calls(profiled.measurement, runs.results.front(), e.measured_range,
                                                        e.reference_range, quantities);
  o.measured = audit.measured;
  o.findings = audit.findings;
}

/// One more run of the harness, under compute-sanitizer's memcheck (--memcheck).
grading::MemcheckReport run_memcheck(const grading::Rubric& rubric, const std::string& work, const std::string& student,
                                     const std::string& gpu) {
  const std::string sanitizer = (fs::path(LABBOOK_NVCC).parent_path() / "compute-sanitizer").string();
  grading::SandboxRequest r =
      harness_request(work, grading::memcheck_command(sanitizer, harness_command(rubric, work, student)), gpu);
  r.env.push_back({"TMPDIR", work});
  r.limits.wall_seconds = 300;   // the sanitizer checks every access: a run takes many times longer
  const grading::SandboxResult result = grading::run_sandboxed(r);
  grading::MemcheckReport report;
  if (result.end != grading::SandboxResult::End::Exited) {
    report.not_run = "the sanitizer's run " + result.describe();
    return report;
  }
  try {
    return grading::parse_memcheck_output(result.out + result.err);
  } catch (const Error& e) {
    report.not_run = e.what();
    return report;
  }
}

/// One submission copied, built and checked: everything grading learns without a GPU.
struct Built {
  grading::Submission submission;
  std::string dir;                      ///< OUT/<student>
  std::string work;                     ///< its sandbox folder; "" when there was nothing to build
  uid_t uid = 0;                        ///< as root, the uid its code runs as
  grading::SubmissionOutcome outcome;
  std::string labbook_error;            ///< labbook itself failed: not graded, tried again next run
};

Built build_one(const grading::Exercise& e, const grading::Submission& s, const std::string& dir, uid_t uid) {
  Built b{s, dir, "", uid, {}, ""};
  grading::SubmissionOutcome& o = b.outcome;
  o.student = s.student;
  if (s.file.empty()) {
    o.build_log = "no " + e.student_file + " in the submission";
    return b;
  }
  try {
    fs::create_directories(dir);
    b.work = prepare_work(dir, s.file, e.student_file, uid);
    o.build_log = build(e, b.work, o.built);
    if (o.built) {
      const std::string refused = check_object(b.work);
      if (!refused.empty()) {
        o.built = false;
        o.problem = refused;
      }
    }
  } catch (const std::exception& error) {
    b.labbook_error = error.what();
  }
  return b;
}

struct ToGrade {
  grading::Submission submission;
  std::string dir;
  uid_t uid;
};

/// Builds every submission, `jobs` at a time: builds need only the CPU, so they run side by
/// side, while GPU runs (counters are device-wide) stay one at a time.
std::vector<Built> build_all(const grading::Exercise& e, const std::vector<ToGrade>& todo, int jobs, ProgressBar& progress) {
  std::vector<Built> built(todo.size());
  std::atomic<std::size_t> next{0};
  std::mutex report;
  const auto worker = [&] {
    for (std::size_t i; (i = next++) < todo.size();) {
      built[i] = build_one(e, todo[i].submission, todo[i].dir, todo[i].uid);
      const std::lock_guard<std::mutex> lock(report);
      progress.step(todo[i].submission.student, built[i].outcome.built ? "built" : "does not build");
    }
  };
  std::vector<std::thread> threads;
  for (int t = 1; t < std::min<int>(jobs, static_cast<int>(todo.size())); ++t) threads.emplace_back(worker);
  worker();
  for (auto& t : threads) t.join();
  return built;
}

/// Runs and scores one built submission on `gpu`, writing feedback.{md,html},
/// instructor.{md,html}, results.json and score.json (last: its presence marks the student
/// as graded).
grading::Score grade_built(const grading::Exercise& e, const grading::Rubric& rubric, Built& b, const std::string& gpu,
                           bool memcheck) {
  RunReport run;
  run.outcome = b.outcome;
  grading::SubmissionOutcome& o = run.outcome;
  if (!b.labbook_error.empty()) throw Error(b.labbook_error);
  if (o.built) {
    run_and_measure(e, rubric, b.work, b.submission.student, b.uid, gpu, run);
    if (memcheck && run.stopped) o.memcheck = grading::MemcheckReport{"its own runs were stopped by a limit", 0, {}};
    else if (memcheck) o.memcheck = run_memcheck(rubric, b.work, b.submission.student, gpu);
  }
  const grading::Score score = grading::score_submission(rubric, o);
  report::write_sheet(grading::feedback_sheet(rubric, score, o, false), b.dir, "feedback");
  report::write_sheet(grading::feedback_sheet(rubric, score, o, true), b.dir, "instructor");
  write_file_atomically(b.dir + "/results.json", grading::gradescope_results(score).dump(1) + "\n");
  if (!run.log.empty()) write_file_atomically(b.dir + "/run.log", run.log);
  write_file_atomically(b.dir + "/score.json", grading::score_json(score, o).dump(1) + "\n");
  return score;
}

/// Grades the built submissions with one runner per GPU (visible_gpus()): counters are
/// device-wide, so each GPU runs one submission at a time, and several GPUs share the class.
std::vector<grading::Score> run_on_every_gpu(const grading::Exercise& e, const grading::Rubric& rubric, std::vector<Built>& built,
                                             bool memcheck, ProgressBar& progress) {
  std::vector<grading::Score> scores(built.size());
  std::atomic<std::size_t> next{0};
  std::mutex report;
  const auto runner = [&](const std::string& gpu) {
    for (std::size_t i; (i = next++) < built.size();) {
      Built& b = built[i];
      try {
        scores[i] = grade_built(e, rubric, b, gpu, memcheck);
      } catch (const std::exception& error) {   // one student's trouble never stops the batch
        grading::SubmissionOutcome o;
        o.student = b.submission.student;
        o.problem = std::string("labbook could not grade this submission: ") + error.what();
        // No score.json: the next run tries this student again.
        scores[i] = grading::score_submission(rubric, o);
        const std::lock_guard<std::mutex> lock(report);
        std::fprintf(stderr, "labbook: %s: %s\n", o.student.c_str(), error.what());
      }
      char total[64];
      std::snprintf(total, sizeof total, "%.2f / %.2f", scores[i].total, scores[i].max_total);
      const std::lock_guard<std::mutex> lock(report);
      progress.step(b.submission.student, total);
    }
  };
  const std::vector<std::string> gpus = visible_gpus();
  std::vector<std::thread> threads;
  for (std::size_t g = 1; g < std::min(gpus.size(), built.size()); ++g) threads.emplace_back(runner, gpus[g]);
  runner(gpus.front());
  for (auto& t : threads) t.join();
  return scores;
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
  if (!options.build_only && !gpu_available(why)) {
    std::fprintf(stderr, "labbook: no GPU to run the submissions on (%s): nothing graded\n", why.c_str());
    return kExitNoGpu;
  }
  if (!grading::sandbox_available(why))
    throw Error("student code runs only in a sandbox, and none works here: " + why + " (tools/install-deps installs bubblewrap)");
  grading::copy_rubric(options.out_dir, rubric);   // what --collect scores against
  std::vector<grading::Score> scores;
  std::vector<ToGrade> todo;
  // A student's uid follows its place in the whole class, so tasks sharing a node differ.
  const std::size_t first = options.task ? *options.task * options.per_task.value_or(GradeOptions::kDefaultPerTask) : 0;
  for (std::size_t i = 0; i < submissions.size(); ++i) {
    const grading::Submission& s = submissions[i];
    const std::string dir = options.out_dir + "/" + s.student;
    const std::string marker = dir + "/score.json";
    if (!options.force && !options.build_only && fs::exists(marker)) {
      scores.push_back(grading::score_from_json(rubric, nlohmann::json::parse(read_file(marker))));
      std::fprintf(stderr, "%s: graded before (--force grades again)\n", s.student.c_str());
      continue;
    }
    todo.push_back({s, dir, static_cast<uid_t>(kSandboxUidBase + first + i)});
  }
  ProgressBar building("building", todo.size());
  std::vector<Built> built = build_all(e, todo, options.jobs, building);
  building.done();
  if (options.build_only) {
    int failed = 0;
    for (const auto& b : built) {
      const grading::SubmissionOutcome& o = b.outcome;
      const std::string status = o.built                    ? "builds"
                                 : !b.labbook_error.empty() ? "labbook failed: " + b.labbook_error
                                 : !o.problem.empty()       ? "refused: " + o.problem.substr(0, o.problem.find('\n'))
                                                            : "does not build: " + o.build_log.substr(0, o.build_log.find('\n'));
      std::printf("%s: %s\n", b.submission.student.c_str(), status.c_str());
      failed += !b.outcome.built;
    }
    return failed ? 1 : 0;
  }
  ProgressBar running("running", built.size());
  std::vector<grading::Score> graded = run_on_every_gpu(e, rubric, built, options.memcheck, running);
  running.done();
  scores.insert(scores.end(), graded.begin(), graded.end());
  if (options.task) {   // one task of a job array: the class files wait for --collect
    std::printf("task %zu: graded %zu submissions into %s\n", *options.task, submissions.size(), options.out_dir.c_str());
    return 0;
  }
  grading::write_class_files(options.out_dir, rubric, scores);
  std::printf("graded %zu submissions: %s/grades.csv\n", submissions.size(), options.out_dir.c_str());
  return 0;
}

}  // namespace labbook::cli
