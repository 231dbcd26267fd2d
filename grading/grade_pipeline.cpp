#include "grade_pipeline.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <mutex>
#include <thread>

#include <nlohmann/json.hpp>

#include "call_audit.h"
#include "class_build.h"
#include "combined_counters.h"
#include "collector_environment.h"
#include "grade_writers.h"
#include "grading_secret.h"
#include "harness_records.h"
#include "labbook/model/atomic_file.h"
#include "labbook/model/error.h"
#include "labbook/model/metric_catalog.h"
#include "labbook/model/numbers.h"
#include "launch_filter.h"
#include "memcheck.h"
#include "profile_session.h"
#include "sheet_files.h"
#include "source_lines.h"

namespace labbook::grading {

namespace fs = std::filesystem;

namespace {

/// As root, each student's code runs as a uid of its own: kSandboxUidBase + the student's
/// place in the class. No student can touch another's files, and RLIMIT_NPROC, which counts
/// every task of a uid, limits each sandbox alone when builds run side by side. The range lies
/// above what Debian (< 65536) and systemd's containers (524288-1879048191) hand out.
constexpr uid_t kSandboxUidBase = 2000000000;

/// The harness's record channel and the collector's, as the harness sees them.
constexpr int kRecordsFd = kFirstChannelFd;
constexpr int kMeasurementFd = kFirstChannelFd + 1;
/// The most metrics runs a submission gets: the number comes from its first metrics run, in
/// the student's process (grading/README: what remains).
constexpr int kMaxMetricsRuns = 8;
/// The most a measurement may take: ample for the few dozen kernels of an exercise.
constexpr std::uint64_t kMeasurementBytes = 64ull << 20;

class SandboxRunner : public Runner {
 public:
  SandboxResult run(const SandboxRequest& r) override { return run_sandboxed(r); }
};

/// The harness's command line: its seed (the student's), the rubric's tolerances, and (unless
/// nobody reads them) where its records go.
std::vector<std::string> harness_command(const ClassSettings& settings, const Student& s, bool records = true) {
  std::vector<std::string> command = {s.work + "/harness", "--seed", std::to_string(s.seed)};
  if (records) command.insert(command.end(), {"--records", std::to_string(kRecordsFd)});
  if (const Criterion* c = settings.rubric.correctness())
    for (const auto& [flag, value] : {std::pair{"--atol", c->absolute_tolerance}, std::pair{"--rtol", c->relative_tolerance}}) {
      command.insert(command.end(), {flag, format_number("%.17g", value)});
    }
  return command;
}

lab::Tolerance tolerance_of(const Rubric& rubric) {
  const Criterion* c = rubric.correctness();
  return c ? lab::Tolerance{c->absolute_tolerance, c->relative_tolerance} : lab::Tolerance{};
}

/// A sandboxed run of the built harness on one GPU: its own folder writable, the build
/// read-only.
SandboxRequest harness_request(const Toolchain& toolchain, const Student& s, const std::string& run_dir,
                               std::vector<std::string> command, const std::string& gpu) {
  SandboxRequest r;
  r.command = std::move(command);
  r.work_dir = run_dir;
  r.env = toolchain.environment(run_dir);
  // Every module loaded before the first call, so that no call's time holds a module load.
  r.env.push_back({"CUDA_MODULE_LOADING", "EAGER"});
  r.env.push_back({"CUDA_VISIBLE_DEVICES", gpu});
  r.read_only = toolchain.run_paths();
  r.read_only.push_back(s.work);
  r.gpu = true;
  r.limits.wall_seconds = 60;   // a correct run takes a few seconds, a metrics run a few more
  return r;
}

/// What every run of the harness said, judged run by run (the trace run first).
struct Runs {
  std::vector<HarnessResult> results;
  std::string missing;   ///< why a run is not to be trusted, if one is not
  std::string log;
  bool stopped = false;  ///< a run was stopped by a limit
  std::string trouble;   ///< labbook's own trouble in a run: nothing to grade the student on
};

/// Runs the harness under the collector, every run in the sandbox on `gpu`, judges each run's
/// records as it comes back, then audits the calls against what the collector saw.
void run_and_measure(const ClassSettings& settings, const Toolchain& toolchain, Runner& runner, Student& s,
                     const std::string& gpu, Runs& runs) {
  const Exercise& e = settings.exercise;
  const std::string run_dir = fresh_folder(s.dir + "/run", s.uid);
  profiler::ProfileRequest request;
  request.command = harness_command(settings, s);
  request.collector = settings.collector;
  // The exercise's metrics, and whatever catalog metric the rubric (perhaps the instructor's
  // own) measures besides.
  std::vector<std::string> metrics = e.metrics;
  for (const auto& c : settings.rubric.criteria)
    if (c.measure && c.measure->metric()) metrics.push_back(c.measure->name());
  request.cupti_metrics = with_combining_weights(cupti_metrics_for(metrics));
  if (e.source_lines) {
    // The student's kernels alone: those the harness's student calls launch ("student/..."),
    // one source run each; not the reference's.
    request.source_metrics = report::source_line_metrics();
    request.source_nvtx = {profiler::glob_literal(e.measured_range.substr(0, e.measured_range.find('/')))};
  }
  request.work_dir = s.listings();
  request.plan_dir = run_dir;
  request.program_writes_plan_dir = false;   // the harness's seccomp filter forbids it
  request.max_metrics_runs = kMaxMetricsRuns;
  const std::uint64_t seed = s.seed;
  const lab::Tolerance tolerance = tolerance_of(settings.rubric);
  request.runner = [&](const std::vector<std::string>& command, const std::map<std::string, std::string>& env,
                       const std::string& stdout_path) {
    SandboxRequest r = harness_request(toolchain, s, run_dir, command, gpu);
    for (const auto& kv : env) r.env.push_back(kv);
    r.env.push_back({profiler::env::kOutputFd, std::to_string(kMeasurementFd)});
    r.channels = 2;
    // Room for every output of the run and a large measurement, no more: a program that floods
    // its pipes is stopped before it fills labbook's memory.
    r.limits.channel_bytes = {e.check.run_output_bytes() + (16ull << 20), kMeasurementBytes};
    const SandboxResult last = runner.run(r);
    // labbook's own trouble, not the student's: no score, tried again next time (thrown again
    // below, should the session have taken it for a lost metrics run).
    if (last.end == SandboxResult::End::FailedToStart) runs.trouble = "the sandbox could not start the harness: " + last.describe();
    runs.log += last.out + last.err;
    if (!stdout_path.empty()) write_file_atomically(stdout_path, last.out);
    // The measurement came through the pipe: it goes where the session reads it, a folder
    // no student code can reach. Nothing at all when the program left none.
    const std::string measurement = env.at(profiler::env::kOutput);
    fs::remove(measurement);
    if (last.channels.size() > 1 && !last.channels[1].empty()) write_file_atomically(measurement, last.channels[1]);
    static const std::string none;
    const std::string& records = last.channels.empty() ? none : last.channels[0];   // hundreds of MiB: not copied
    HarnessResult judged = judge_harness_records(records, e, seed, tolerance);
    if (!judged.setup_failure.empty() && runs.trouble.empty()) runs.trouble = "the harness could not set up: " + judged.setup_failure;
    if (!runs.trouble.empty()) throw Error(runs.trouble);
    if (last.end != SandboxResult::End::Exited && runs.missing.empty()) runs.missing = "the program was " + last.describe();
    runs.results.push_back(std::move(judged));
    switch (last.end) {
      case SandboxResult::End::Exited: return last.exit_code;
      case SandboxResult::End::Signalled: return 128 + last.signal;
      default: runs.stopped = true; return 124;   // stopped by a limit, as timeout(1) says
    }
  };
  const profiler::ProfileOutcome profiled = profiler::profile_program(request);
  if (!runs.trouble.empty()) throw Error(runs.trouble);
  SubmissionOutcome& o = s.outcome;
  // Right only if every run's records check out; the first wrong run's problem otherwise.
  o.correct = runs.missing.empty() && !runs.results.empty();
  if (!runs.missing.empty()) o.problem = runs.missing;
  for (const auto& r : runs.results)
    if (!r.correct) {
      o.correct = false;
      if (runs.missing.empty()) o.problem = r.problem;
      break;
    }
  if (runs.results.empty()) o.problem = "the program was not run";
  if (!profiled.collected || runs.results.empty()) return;
  std::vector<Quantity> quantities;
  for (const auto& c : settings.rubric.criteria)
    if (c.measure) quantities.push_back(*c.measure);
  // The trace run's calls: its times are the program's own, not slowed by counters.
  const CallAudit audit = audit_calls(profiled.measurement, runs.results.front(), e.measured_range, e.reference_range,
                                     quantities, HostCodeRules{e.host_code, e.link_range, e.work_kernel});
  // Results made off the GPU are not the exercise's, however right they are. (A host-code
  // exercise's calls copy their results back: the audit checks those copies instead.)
  for (const CallMeasure& c : audit.calls)
    if (!within(c.call.range, e.reference_range) && (e.link_range.empty() || !within(c.call.range, e.link_range)) &&
        (c.kernels == 0 || (!e.host_code && c.device_to_host_bytes > 0)) && *o.correct) {
      o.correct = false;
      o.problem = "call " + c.call.range + (c.kernels == 0 ? " ran no kernel" : " copied data from the device to the host") +
                  ": its results were not made by kernels on the GPU";
    }
  o.measured = audit.measured;
  o.findings = audit.findings;
  o.observations = audit.observations;
  // The student's kernels: those launched in the measured calls. Their counts cover all their
  // launches (CUPTI counts a kernel once per run), the calls that check results too.
  const auto& kernels = profiled.measurement.kernels;
  for (const auto& k : kernels) {
    if (k.sass.empty()) continue;
    const auto covered = sass_covered(kernels, k);
    if (std::any_of(covered.begin(), covered.end(), [&](const Kernel* c) { return within(c->range, e.measured_range); }))
      o.instructions.insert(o.instructions.end(), k.sass.begin(), k.sass.end());
  }
}

/// One more run of the harness, under compute-sanitizer's memcheck (--memcheck).
MemcheckReport run_memcheck(const ClassSettings& settings, const Toolchain& toolchain, Runner& runner, const Student& s,
                            const std::string& gpu) {
  const std::string run_dir = fresh_folder(s.dir + "/run", s.uid);
  // No records: the sanitizer's report is feedback only.
  SandboxRequest r =
      harness_request(toolchain, s, run_dir, memcheck_command(settings.sanitizer, harness_command(settings, s, false)), gpu);
  r.env.push_back({"TMPDIR", run_dir});
  r.limits.wall_seconds = 300;   // the sanitizer checks every access: a run takes many times longer
  const SandboxResult result = runner.run(r);
  MemcheckReport report;
  if (result.end != SandboxResult::End::Exited) {
    report.not_run = "the sanitizer's run " + result.describe();
    return report;
  }
  try {
    return parse_memcheck_output(result.out + result.err);
  } catch (const Error& e) {
    report.not_run = e.what();
    return report;
  }
}

/// Runs and scores one built student on `gpu`, then writes feedback.{md,html},
/// instructor.{md,html}, results.json and score.json (last: its presence marks the student
/// as graded).
Score grade_built(const ClassSettings& settings, const Toolchain& toolchain, Runner& runner, Student& s, const std::string& gpu) {
  if (!s.labbook_error.empty()) throw Error(s.labbook_error);
  SubmissionOutcome& o = s.outcome;
  Runs runs;
  if (o.built) {
    run_and_measure(settings, toolchain, runner, s, gpu, runs);
    if (settings.memcheck && runs.stopped) o.memcheck = MemcheckReport{"its own runs were stopped by a limit", 0, {}};
    else if (settings.memcheck) o.memcheck = run_memcheck(settings, toolchain, runner, s, gpu);
  }
  const Score score = score_submission(settings.rubric, o);
  report::write_sheet(feedback_sheet(settings.rubric, score, o, false), s.dir, "feedback");
  report::write_sheet(feedback_sheet(settings.rubric, score, o, true), s.dir, "instructor");
  write_file_atomically(s.dir + "/results.json", gradescope_results(score).dump(1) + "\n");
  if (!runs.log.empty()) write_file_atomically(s.dir + "/run.log", runs.log);
  write_file_atomically(s.dir + "/score.json", score_json(score, o).dump(1) + "\n");
  return score;
}

}  // namespace

std::unique_ptr<Runner> sandbox_runner() { return std::make_unique<SandboxRunner>(); }

std::vector<Graded> grade_class(const ClassSettings& settings, const std::vector<Submission>& submissions,
                                Toolchain& toolchain, Runner& runner, const Progress& progress) {
  std::vector<Graded> graded(submissions.size());
  std::vector<Student> students;
  std::vector<std::size_t> place;   // students[i] is graded[place[i]]
  const std::string secret = settings.build_only ? "" : class_secret(settings.out_dir);
  for (std::size_t i = 0; i < submissions.size(); ++i) {
    const Submission& sub = submissions[i];
    graded[i].submission = sub;
    const std::string dir = settings.out_dir + "/" + sub.student;
    const std::string marker = dir + "/score.json";
    if (!settings.force && !settings.build_only && fs::exists(marker)) {
      graded[i].graded_before = true;
      graded[i].score = score_from_json(settings.rubric, nlohmann::json::parse(read_file(marker)));
      continue;
    }
    Student s;
    s.submission = sub;
    s.dir = dir;
    s.uid = static_cast<uid_t>(kSandboxUidBase + settings.first_index + i);
    s.seed = sub.file.empty() ? 0 : student_seed(secret, sub.student, read_file(sub.file));
    students.push_back(std::move(s));
    place.push_back(i);
  }
  progress.begin("building", students.size());
  build_all(settings, toolchain, students, progress);
  progress.end();
  const auto keep = [&](std::size_t i) {
    graded[place[i]].outcome = students[i].outcome;
    graded[place[i]].labbook_error = students[i].labbook_error;
  };
  if (settings.build_only) {
    // Each student's whole build output, beside the line `grade --build-only` prints.
    for (std::size_t i = 0; i < students.size(); ++i) {
      keep(i);
      const SubmissionOutcome& o = students[i].outcome;
      // What a graded run's student reads, without the scores: the student checks a build here.
      const report::Sheet sheet = build_feedback_sheet(settings.rubric, students[i].submission.student, o);
      report::write_sheet(sheet, students[i].dir, "feedback");
      report::write_sheet(sheet, students[i].dir, "instructor");
    }
    return graded;
  }
  // One runner per GPU: counters are device-wide, so each GPU runs one submission at a time.
  progress.begin("running", students.size());
  std::atomic<std::size_t> next{0};
  std::mutex report;
  const auto run_on = [&](const std::string& gpu) {
    for (std::size_t i; (i = next++) < students.size();) {
      Student& s = students[i];
      Graded& g = graded[place[i]];
      try {
        g.score = grade_built(settings, toolchain, runner, s, gpu);
      } catch (const std::exception& error) {   // one student's trouble never stops the batch
        s.labbook_error = error.what();
        s.outcome.problem = std::string("labbook could not grade this submission: ") + error.what();
        g.score = score_submission(settings.rubric, s.outcome);   // no score.json: tried again next run
      }
      keep(i);
      const std::string total = format_number("%.2f", g.score.total) + " / " + format_number("%.2f", g.score.max_total);
      const std::lock_guard<std::mutex> lock(report);
      progress.step(s.submission.student, s.labbook_error.empty() ? total : "labbook failed: " + s.labbook_error);
    }
  };
  std::vector<std::thread> threads;
  for (std::size_t g = 1; g < std::min(settings.gpus.size(), students.size()); ++g) threads.emplace_back(run_on, settings.gpus[g]);
  run_on(settings.gpus.front());
  for (auto& t : threads) t.join();
  progress.end();
  return graded;
}

}  // namespace labbook::grading
