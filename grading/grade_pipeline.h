#pragma once
/// @file
/// Grading a class, below the command line: for each submission, build → object check → runs
/// under the collector → judge → audit → score → write. The compiler and the runner of student
/// code are injected (Toolchain, Runner), so that a CPU test drives a whole class through the
/// pipeline with fakes; `labbook grade` passes the real ones (nvcc_toolchain.h, the sandbox).
///
/// What a student's folder OUT/<student>/ holds, and who may write where:
///   work/      the submission and its build; writable by the sandbox while it builds, bound
///              read-only while the harness runs, so a run cannot change the next one's program
///   run/       the harness's working folder while it runs (where nothing can be created: the
///              seccomp filter forbids it once student code may run)
///   labbook/   labbook's own: listings of the object, the runs' measurements (which come back
///              through a pipe, never through a file the program could write)
///   build.log (the build's verdict, the compiler's output and its target), feedback.{md,html},
///   instructor.{md,html}, results.json, run.log, score.json (last)
/// and OUT/.grading-secret, which the class's inputs are drawn from (grading_secret.h).
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "exercise.h"
#include "rubric.h"
#include "sandbox.h"
#include "scoring.h"

namespace labbook::grading {

/// Builds and inspects submissions.
class Toolchain {
 public:
  virtual ~Toolchain() = default;
  struct Build {
    bool built = false;
    std::string log;   ///< the compiler's output
  };
  /// Builds `work`/<student file> (already there, owned by the sandbox's user) against the
  /// exercise's harness into `work`/harness. Student code is only compiled here, never run.
  virtual Build build(const Exercise&, const std::string& work) = 0;
  /// Why the built submission is refused ("" when it is not); `listings` is a folder of
  /// labbook's own for what the inspection tools print.
  virtual std::string refusal(const Exercise&, const std::string& work, const std::string& listings) = 0;
  /// The environment student code runs with (the sandbox inherits nothing).
  virtual std::vector<std::pair<std::string, std::string>> environment(const std::string& home) const = 0;
  /// Read-only paths every run needs (the collector, CUPTI's libraries).
  virtual std::vector<std::string> run_paths() const = 0;
};

/// Runs one command in the sandbox: run_sandboxed() in production.
class Runner {
 public:
  virtual ~Runner() = default;
  virtual SandboxResult run(const SandboxRequest&) = 0;
};
std::unique_ptr<Runner> sandbox_runner();

struct ClassSettings {
  Exercise exercise;
  Rubric rubric;
  std::string out_dir;
  bool force = false;        ///< grade again students graded before
  bool build_only = false;   ///< build and check only, run nothing
  bool memcheck = false;     ///< one more run under compute-sanitizer, as feedback
  int jobs = 1;              ///< builds at once
  std::vector<std::string> gpus = {"0"};   ///< one runner each (CUDA_VISIBLE_DEVICES entries)
  std::string sanitizer;     ///< compute-sanitizer's path, for memcheck
  std::string collector;     ///< libcupti-collector.so, injected into every run
  /// The first student's place in the whole class (a Slurm task's slice starts further on):
  /// as root, student i runs as uid kSandboxUidBase + first_index + i.
  std::size_t first_index = 0;
};

/// What became of one student.
struct Graded {
  Submission submission;
  SubmissionOutcome outcome;   ///< empty when graded before
  Score score;
  bool graded_before = false;  ///< its score.json was there (and not --force)
  std::string labbook_error;   ///< labbook itself failed: no score.json, tried again next run
};

/// Reports progress: phase ("building", "running") with its count, then each student.
struct Progress {
  std::function<void(const std::string& phase, std::size_t total)> begin = [](const std::string&, std::size_t) {};
  std::function<void(const std::string& student, const std::string& status)> step = [](const std::string&,
                                                                                       const std::string&) {};
  std::function<void()> end = [] {};
};

/// Grades `submissions` (builds `jobs` at a time, runs one at a time per GPU), writing each
/// student's files as soon as that student is done. With build_only, stops after the object
/// check and writes nothing but the builds. Never throws for what a submission does.
std::vector<Graded> grade_class(const ClassSettings& settings, const std::vector<Submission>& submissions,
                                Toolchain& toolchain, Runner& runner, const Progress& progress = {});

}  // namespace labbook::grading
