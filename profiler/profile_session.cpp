#include "profile_session.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <regex>
#include <utility>

#include "labbook/model/error.h"
#include "labbook/model/measurement_json.h"
#include "labbook/model/merge.h"
#include "labbook/model/text.h"
#include "collector_environment.h"
#include "measurement_watch.h"
#include "cache_folder.h"
#include "pass_plan.h"
#include "program_runner.h"
#include "replay_choice.h"
#include "stopwatch.h"

namespace labbook::profiler {

namespace {

/// What one run of the program under the collector does.
struct RunSpec {
  std::string mode;     ///< "trace", "metrics" or "source"
  std::string output;   ///< measurement file the collector writes
  int pass = 0;         ///< application replay: which run of the pass plan this is
  bool first = false;   ///< the program's own run: its stdout is the user's
  std::string source_kernel = "";   ///< a source run: the kernel to count ("" for the first run's choice)
  std::optional<std::uint64_t> expected_launches = std::nullopt;   ///< a metrics run after the trace run: CollectorRun's
  bool without_stops = false;                                      ///< the same: CollectorRun's
  bool profiled_only = false;                                      ///< a metrics run that joins another: CollectorRun's
  bool while_ending = false;   ///< its measurement given to ProfileRequest::while_ending once read
};

/// The file through which the first application-replay run tells later runs the pass plan.
std::string plan_path(const ProfileRequest& request) {
  return (request.plan_dir.empty() ? request.work_dir : request.plan_dir) + "/pass-plan.txt";
}

/// A run's exit code, and its measurement where it was read while the program ended.
struct RunResult {
  int exit_code = 0;
  std::optional<EarlyRead> read_early;
};

/// One run of the program with the collector injected.
RunResult run_collected(const ProfileRequest& request, const RunSpec& run) {
  const bool metrics = run.mode == "metrics";
  CollectorRun collector;
  collector.mode = run.mode;
  collector.output = run.output;
  collector.metrics = run.mode == "source" ? request.source_metrics : request.cupti_metrics;
  // The trace run replays nothing; a metrics run's "auto" was chosen after it.
  collector.replay = request.replay == "auto" ? "application" : request.replay;
  collector.cache_control = request.cache_control;
  collector.pass = run.pass;
  collector.pass_plan = plan_path(request);
  collector.nvtx = run.mode == "source" && !request.source_nvtx.empty() ? request.source_nvtx : request.nvtx;
  collector.kernels = request.kernels;
  collector.launch_skip = request.launch_skip;
  collector.launch_count = request.launch_count;
  collector.source_kernel = run.source_kernel;
  collector.expected_launches = run.expected_launches;
  collector.profiled_only = run.profiled_only;
  collector.without_stops = run.without_stops;
  std::map<std::string, std::string> env = collector.environment();
  env["CUDA_INJECTION64_PATH"] = request.collector;
  env["NVTX_INJECTION64_PATH"] = LABBOOK_CUPTI_LIBRARY;
  // CUPTI loads libnvperf_host/target with dlopen: they must be on the loader path.
  const char* old = std::getenv("LD_LIBRARY_PATH");
  env["LD_LIBRARY_PATH"] = std::string(LABBOOK_CUPTI_LIBRARY_DIR) + (old && *old ? ":" + std::string(old) : "");
  std::filesystem::remove(run.output);
  MeasurementWatch::Then then;
  if (run.while_ending && request.while_ending)
    then = [&request](Measurement& m) {
      m.program.command = request.command;
      request.while_ending(m);
    };
  MeasurementWatch watch(run.output, [](const std::string& path) { return read_measurement(path); }, std::move(then));
  std::vector<std::string> command = request.command;
  if (run.mode == "source" && !run.first) command.insert(command.end(), request.source_args.begin(), request.source_args.end());
  const std::string what = metrics && request.replay == "application" ? "metrics run " + std::to_string(run.pass + 1) : run.mode;
  std::fprintf(stderr, "labbook: %s run: %s\n", what.c_str(), join(command, " ").c_str());
  const auto started = std::chrono::steady_clock::now();
  // The program's stdout is the first run's alone: what later runs print goes to a file, so
  // that the output reads as if the program had run once.
  const std::string stdout_path = run.first ? "" : run.output + ".stdout";
  const int exit_code = request.runner ? request.runner(command, env, stdout_path) : run_program(command, env, stdout_path);
  std::fprintf(stderr, "labbook: %s run: %.3f s, exit code %d\n", what.c_str(),
               seconds_since(started), exit_code);
  return {exit_code, watch.take()};
}

/// A run's measurement, read (or taken from what was read while the program ended); with
/// `request.verbose`, how long that took said on stderr.
Measurement read_run(const ProfileRequest& request, const std::string& path, std::optional<EarlyRead>& early) {
  const std::string file = std::filesystem::path(path).filename().string();
  if (early) {
    if (request.verbose)
      std::fprintf(stderr, "labbook: %s read in %.3f s while the program ended (%zu kernels); it exited %.3f s after "
                   "the collector wrote it\n", file.c_str(), early->read_seconds, early->measurement.kernels.size(),
                   early->written_to_exit_seconds);
    return std::move(early->measurement);
  }
  const auto started = std::chrono::steady_clock::now();
  if (!request.verbose) return read_measurement(path);
  // Since the collector wrote it: the program's teardown after its last record (CUDA's and
  // CUPTI's), during which labbook, waiting for the exit, reads nothing yet.
  std::error_code unknown;
  const auto written = std::filesystem::last_write_time(path, unknown);
  const auto reading = std::filesystem::file_time_type::clock::now();
  Measurement m = read_measurement(path);
  std::fprintf(stderr, "labbook: %s read in %.3f s (%zu kernels)", file.c_str(), seconds_since(started), m.kernels.size());
  if (!unknown)
    std::fprintf(stderr, ", %.3f s after the collector wrote it", std::chrono::duration<double>(reading - written).count());
  std::fprintf(stderr, "\n");
  return m;
}

std::string nothing_written(const std::string& mode, const std::string& path, int exit_code) {
  return "the " + mode + " run (exit code " + std::to_string(exit_code) + ") left no measurement at " + path +
         ": the program may not use CUDA, or the collector could not start (is another CUPTI tool attached?)";
}

/// The metrics runs: one with kernel replay, or one per pass of the plan with application
/// replay, each merged into `into` kernel by kernel. `first_exit` is the program's own exit
/// code (set here when there is no trace run). Returns false if the first left nothing.
bool collect_metrics(const ProfileRequest& request, Measurement& into, bool have_base, int& first_exit) {
  const std::string plan = plan_path(request);
  std::filesystem::remove(plan);
  remove_carried_counters(plan);
  struct Cleanup {   // on every return path
    const std::string& plan;
    ~Cleanup() { remove_carried_counters(plan); }
  } cleanup{plan};
  int passes = 1;
  // From the trace run, before any metrics run is merged into it: the same for every pass.
  const std::optional<std::uint64_t> expected =
      have_base ? std::optional<std::uint64_t>(launches_to_profile(into, request.launch_skip, request.launch_count))
                : std::nullopt;
  const bool without_stops = have_base && request.program_writes_plan_dir &&
                             profiles_without_stops(into, !request.kernels.empty() || !request.nvtx.empty());
  for (int pass = 0; pass < passes; ++pass) {
    RunSpec run{"metrics", request.work_dir + "/metrics-run-" + std::to_string(pass + 1) + ".json", pass, !have_base};
    run.expected_launches = expected;
    run.without_stops = without_stops;
    run.profiled_only = have_base;   // the measurement it joins has every launch
    RunResult ran;
    try {
      ran = run_collected(request, run);
    } catch (const Error& e) {   // could not start it: the program's first run decides
      if (!have_base) throw;
      into.issues.push_back({"metrics_lost", e.what()});
      return true;
    }
    const int exit_code = ran.exit_code;
    if (pass == 0 && !have_base) first_exit = exit_code;
    if (!std::filesystem::exists(run.output)) {
      if (!have_base) return false;
      into.issues.push_back({"metrics_lost", nothing_written("metrics", run.output, exit_code)});
      return true;
    }
    Measurement measured;
    try {
      measured = read_run(request, run.output, ran.read_early);
    } catch (const Error& e) {   // labbook's problem, not the program's: said, never fatal
      if (!have_base) return false;
      into.issues.push_back({"metrics_lost", e.what()});
      return true;
    }
    const int planned_runs = measured.metric_passes;
    if (!have_base) {
      into = std::move(measured);
      have_base = true;
    } else {
      into = merge_runs(std::move(into), measured);
    }
    // A program behaves the same in every run, exit code included; one that does not is
    // not deterministic, and later passes would measure something else.
    if (exit_code != first_exit) {
      into.issues.push_back({"metrics_run_failed", "metrics run " + std::to_string(pass + 1) + " exited with code " +
                                                       std::to_string(exit_code) + " where the program's own run gave " +
                                                       std::to_string(first_exit) + "; its metrics may describe "
                                                       "other work, and no later run was made"});
      return true;
    }
    // The plan file, or where the program could not write one (`labbook grade` forbids
    // student code to create files, the collector's alike), the runs the first run planned:
    // later runs plan alike, the same metrics on the same chip.
    if (pass == 0 && request.replay == "application") {
      const PassPlan written = read_plan(plan);
      passes = written.groups.empty() ? planned_runs : written.runs();
      if (request.max_metrics_runs && passes > *request.max_metrics_runs) {
        into.issues.push_back({"metrics_lost", "the plan asked for " + std::to_string(passes) + " metrics runs; at most " +
                                                   std::to_string(*request.max_metrics_runs) + " are made"});
        passes = *request.max_metrics_runs;
      }
    }
  }
  return true;
}

/// The runs application replay takes for the request's metrics after `trace`, where an earlier
/// profile on this chip left its plan in labbook's cache; none otherwise. The collector plans
/// alike (range_profiler_host.cpp), LABBOOK_RANGES_PER_IMAGE (for tests) aside.
std::optional<int> cached_plan_runs(const ProfileRequest& request, const Measurement& trace) {
  const std::string folder = cache_folder(kPlanCacheKind);
  if (folder.empty() || trace.devices.empty()) return std::nullopt;
  const bool without_stops = request.program_writes_plan_dir &&
                             profiles_without_stops(trace, !request.kernels.empty() || !request.nvtx.empty());
  const Carrying carrying =
      carrying_for(without_stops, launches_to_profile(trace, request.launch_skip, request.launch_count), std::nullopt);
  const PassPlan plan = read_plan(plan_cache_file(folder, trace.devices.front().chip, trace.program.cupti_version,
                                                  request.cupti_metrics, carrying));
  return plan_covers(plan, request.cupti_metrics) ? std::optional<int>(plan.runs()) : std::nullopt;
}

/// The most source runs, one per kernel: a program of many kernels should choose some with
/// --kernel rather than run that many more times.
constexpr std::size_t kMaxSourceRuns = 32;

bool counted(const Measurement& m, const std::string& kernel) {
  return std::any_of(m.kernels.begin(), m.kernels.end(), [&](const Kernel& k) { return k.mangled == kernel && !k.sass.empty(); });
}

/// The source runs (`--source`): CUPTI counts one kernel per run (sass_source.h). The first
/// run counts the kernel it chooses and lists every kernel the filter chose; then one run per
/// kernel still without counts, naming it. Each run's counts join `into`'s kernels. With
/// `first_done`, `into` is the first source run itself (--source --no-trace). A run that fails
/// or leaves nothing is an issue, never fatal.
void collect_source(const ProfileRequest& request, Measurement& into, int first_exit, bool first_done) {
  std::vector<std::string> kernels = into.program.source_kernels;
  std::size_t runs = first_done ? 1 : 0, next = 0;
  while (true) {
    std::string kernel;   // "" for the first run: its own choice
    if (runs > 0) {
      while (next < kernels.size() && counted(into, kernels[next])) ++next;
      if (next == kernels.size()) break;
      kernel = kernels[next++];
    }
    if (runs == kMaxSourceRuns) {
      into.issues.push_back({"source_lost", "the source runs stopped at " + std::to_string(kMaxSourceRuns) + " (one per "
                                                "kernel) of the " + std::to_string(kernels.size()) +
                                                " kernels chosen: choose fewer with --kernel"});
      break;
    }
    const RunSpec run{"source", request.work_dir + "/source-run-" + std::to_string(runs + 1) + ".json", 0, false, kernel};
    ++runs;
    int exit_code = 0;
    Measurement measured;
    try {
      RunResult ran = run_collected(request, run);
      exit_code = ran.exit_code;
      if (!std::filesystem::exists(run.output)) {
        into.issues.push_back({"source_lost", nothing_written("source", run.output, exit_code)});
        return;
      }
      measured = read_run(request, run.output, ran.read_early);
    } catch (const Error& e) {
      into.issues.push_back({"source_lost", e.what()});
      return;
    }
    merge_sass(into, measured);
    if (kernel.empty()) kernels = measured.program.source_kernels;
    if (exit_code != first_exit) {
      into.issues.push_back({"source_run_failed", "source run " + std::to_string(runs) + " exited with code " +
                                                      std::to_string(exit_code) + " where the program's own run gave " +
                                                      std::to_string(first_exit) + "; its lines may describe other work, "
                                                      "and no later source run was made"});
      return;
    }
  }
  if (kernels.empty())
    into.issues.push_back({"source_lost", "the source run launched no kernel the filter chooses: nothing was counted"});
}

}  // namespace

ProfileOutcome profile_program(const ProfileRequest& asked) {
  ProfileRequest request = asked;   // "auto" replay: chosen after the trace run
  if (request.replay == "auto" && !request.trace) request.replay = "application";   // nothing to choose from
  std::filesystem::create_directories(request.work_dir);
  ProfileOutcome outcome;
  if (!request.trace && request.cupti_metrics.empty() && request.source_metrics.empty())
    throw Error("nothing to collect: no trace run, no metrics and no source run");
  if (request.collector.empty()) throw Error("no collector library to inject (ProfileRequest::collector)");

  // The program's own run, traced or counting instructions: its exit code is the one passed
  // on, and its measurement the one the others join. False (and `outcome.problem`) without one.
  const auto own_run = [&](const RunSpec& run) {
    RunResult ran = run_collected(request, run);
    outcome.exit_code = ran.exit_code;
    const bool given = run.while_ending && request.while_ending && ran.read_early;
    if (!std::filesystem::exists(run.output)) {
      outcome.problem = nothing_written(run.mode, run.output, outcome.exit_code);
      return false;
    }
    try {
      outcome.measurement = read_run(request, run.output, ran.read_early);
    } catch (const Error& e) {
      outcome.problem = e.what();
      return false;
    }
    outcome.given_while_ending = given;
    return outcome.collected = true;
  };
  if (request.trace) {
    const auto trace_started = std::chrono::steady_clock::now();
    RunSpec trace{"trace", request.work_dir + "/trace-run.json", 0, true};
    trace.while_ending = request.cupti_metrics.empty() && request.source_metrics.empty();
    if (!own_run(trace)) return outcome;
    if (request.replay == "auto" && !request.cupti_metrics.empty()) {
      const ReplayChoice choice = choose_replay(outcome.measurement, seconds_since(trace_started), request.launch_skip,
                                                request.launch_count, cached_plan_runs(request, outcome.measurement));
      std::fprintf(stderr, "labbook: %s replay: %s\n", choice.replay.c_str(), choice.why.c_str());
      request.replay = choice.replay;
    }
    if (!request.cupti_metrics.empty()) {
      // A program that exits with a code of its own choosing is profiled like any other;
      // one that a signal ended is not run again.
      if (outcome.exit_code >= 128)
        outcome.measurement.issues.push_back(
            {"metrics_skipped", "metrics were not collected because a signal ended the program (exit code " +
                                    std::to_string(outcome.exit_code) + ")"});
      else
        collect_metrics(request, outcome.measurement, true, outcome.exit_code);
    }
  } else if (request.cupti_metrics.empty()) {
    // The source run alone (--source --no-trace): the program's own run, its stdout the user's.
    if (!own_run({"source", request.work_dir + "/source-run-1.json", 0, true})) return outcome;
    outcome.measurement.program.mode = "source";
    if (outcome.exit_code < 128) collect_source(request, outcome.measurement, outcome.exit_code, true);
    else
      outcome.measurement.issues.push_back({"source_skipped", "a signal ended the program (exit code " +
                                                                  std::to_string(outcome.exit_code) +
                                                                  "): no source run was made for its other kernels"});
  } else {
    // The first metrics run is the program's own run: its exit code is the one passed on.
    outcome.collected = collect_metrics(request, outcome.measurement, false, outcome.exit_code);
    if (!outcome.collected)
      outcome.problem = "the metrics run (exit code " + std::to_string(outcome.exit_code) + ") left no readable measurement in " +
                        request.work_dir;
    outcome.measurement.program.mode = "metrics";
  }
  const bool source_done = !request.trace && request.cupti_metrics.empty();
  if (!request.source_metrics.empty() && !source_done && outcome.collected && outcome.exit_code < 128)
    collect_source(request, outcome.measurement, outcome.exit_code, false);
  outcome.measurement.program.command = request.command;
  outcome.measurement.program.exit_code = outcome.exit_code;
  return outcome;
}

int discard_run_measurements(const ProfileRequest& request) {
  static const std::regex run_file(R"((trace-run|metrics-run-[0-9]+|source-run-[0-9]+)\.json)");
  int removed = 0;
  std::error_code error;
  for (const auto& f : std::filesystem::directory_iterator(request.work_dir, error))
    if (std::regex_match(f.path().filename().string(), run_file) && std::filesystem::remove(f.path(), error)) ++removed;
  if (std::filesystem::is_empty(request.work_dir, error)) std::filesystem::remove(request.work_dir, error);
  return removed;
}

}  // namespace labbook::profiler
