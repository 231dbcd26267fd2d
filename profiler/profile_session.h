#pragma once
/// @file
/// The host side of profiling: runs a program under the collector (a trace run, then the
/// metrics runs), each run told what to do through collector_environment.h, and merges what
/// the runs measured.
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "labbook/model/measurement.h"

namespace labbook::profiler {

struct ProfileRequest {
  std::vector<std::string> command;        ///< program and its arguments
  std::string collector;                   ///< libcupti-collector.so, injected through CUDA_INJECTION64_PATH
  std::vector<std::string> cupti_metrics;  ///< empty: trace only
  bool trace = true;                       ///< false: no trace run (needs metrics or source metrics)
  std::string work_dir;                    ///< where the per-run measurement files go
  /// Where the pass plan (and counters carried between runs) go, written by the program
  /// itself: work_dir when empty. `labbook grade` keeps it apart from work_dir, which the
  /// program must not reach; there the program cannot write them (seccomp), so its later runs
  /// plan again alike, and a metric needing several passes of one group goes unmeasured.
  std::string plan_dir;
  /// Whether the program can write the counters carried from run to run next to the plan:
  /// false under `labbook grade`, whose metrics runs then never plan all metrics as one
  /// carried group (Carrying::AllInOneBatch), which would lose every metric, not one.
  bool program_writes_plan_dir = true;
  /// The most metrics runs to make, whatever the program's first run planned (`labbook
  /// grade`: the plan comes from the student's process); more are an issue. None: no bound.
  std::optional<int> max_metrics_runs;
  /// "application": a run per pass; "kernel": each kernel replayed in one run, its memory put
  /// back between passes; "auto": chosen after the trace run (replay_choice.h), application
  /// without one.
  std::string replay = "application";
  std::string cache_control = "all";       ///< "all": L2 flushed before each profiled kernel; "none"
  /// Which launches get metrics (the collector's LABBOOK_NVTX etc.); all when empty.
  std::vector<std::string> nvtx, kernels;
  std::optional<std::uint64_t> launch_skip, launch_count;
  /// SASS metrics for source runs after the others (none: no source run): per instruction of
  /// the chosen kernels, summed over their launches, with their source lines (Kernel::sass).
  /// One run per kernel (CUPTI counts one per run: sass_source.h), each a run of its own,
  /// since SASS metrics patch the code: its counts never mix with the timed run or the
  /// counter passes.
  std::vector<std::string> source_metrics;
  /// Source runs only: count the kernels with a launch in these NVTX ranges (globs; empty:
  /// `nvtx`'s). A lab counts the kernels of its memory charts, not all of them.
  std::vector<std::string> source_nvtx;
  /// Source runs only, the program's own run aside: arguments after `command`. CUPTI sums a
  /// kernel's launches over the run, so a lab narrows the run to one experiment ("--only X").
  std::vector<std::string> source_args;
  /// How each run is started: (command, environment the collector needs, file for its stdout
  /// or "" for ours) -> exit code. run_program by default; `labbook grade` runs student code
  /// in its sandbox, the measurement coming back through a pipe (env::kOutputFd) that it
  /// writes to the file env::kOutput names.
  std::function<int(const std::vector<std::string>&, const std::map<std::string, std::string>&, const std::string&)>
      runner;
  /// A trace run that no later run joins (no metrics, no source runs): given its measurement,
  /// the command filled in, as soon as it is read, on another thread, while the program ends,
  /// so that the outputs can be written then. It may fill in the exit code it expects;
  /// profile_program() sets the program's own after the exit. Must not throw.
  std::function<void(Measurement&)> while_ending;
  /// LABBOOK_VERBOSE: say on stderr how long each run's measurement took to read (the report
  /// step's share of a profile of many launches).
  bool verbose = false;
};

struct ProfileOutcome {
  Measurement measurement;   ///< trace and metrics merged; exit code filled in
  int exit_code = 0;         ///< of the first run: the program's own
  bool collected = false;    ///< false: the first run left no measurement (see problem)
  std::string problem;       ///< why nothing was collected
  /// `measurement` is the one given to `while_ending`, its exit code set since; false where
  /// it was read after the exit (the file replaced, or not watched).
  bool given_while_ending = false;
};

/// Runs the program under the collector: a trace run, then (if metrics are asked for and
/// the trace run succeeded) the metrics runs, then the source runs if asked for, and merges
/// them; with `trace` off, the metrics runs alone (or the source runs alone). A metrics or
/// source run that fails or leaves nothing becomes an issue.
ProfileOutcome profile_program(const ProfileRequest& request);

/// Removes the runs' own measurements from `request.work_dir` (trace-run.json,
/// metrics-run-N.json, source-run-N.json), for a caller that has written the merged one: a
/// program of 10^5 launches would otherwise leave its measurement on disk twice. The later
/// runs' stdout and the pass plan stay; the folder goes when nothing else is left in it.
/// Returns how many files went.
int discard_run_measurements(const ProfileRequest& request);

}  // namespace labbook::profiler
