// `labbook profile -- PROGRAM ARGS`: any CUDA program, no code changes.
// `labbook summary MEASUREMENT`: the same summary files from a measurement file.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <vector>

#include "activity_summary.h"
#include "collector_environment.h"
#include "commands.h"
#include "gpu_probe.h"
#include "install_layout.h"
#include "labbook/model/error.h"
#include "labbook/model/measurement_json.h"
#include "labbook/model/metric_catalog.h"
#include "launch_filter.h"
#include "program_runner.h"
#include "profile_outputs.h"
#include "profile_session.h"
#include "source_lines.h"
#include "stopwatch.h"

namespace labbook::cli {

using profiler::ProfileOutcome;
using profiler::ProfileRequest;
using profiler::profile_program;
using profiler::program_exists;

namespace {

std::string default_out_dir(const std::string& program) {
  char stamp[32];
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  localtime_r(&t, &tm);
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
  return "labbook-out/" + std::filesystem::path(program).filename().string() + "-" + stamp;
}

/// The top of nvprof's "GPU activities" table. On stderr, like everything labbook says
/// during `profile`: stdout belongs to the program.
void print_gpu_activities(const Measurement& m) {
  const auto rows = report::gpu_activities(m);
  if (rows.empty()) return;
  std::fprintf(stderr, "%8s %10s %6s %10s %10s %10s  %s\n", "Time(%)", "Time", "Calls", "Avg", "Min", "Max", "Name");
  for (std::size_t i = 0; i < rows.size() && i < 10; ++i) {
    const auto& r = rows[i];
    std::fprintf(stderr, "%7.2f%% %10s %6llu %10s %10s %10s  %s\n", r.share_pct,
                 report::nvprof_duration(static_cast<double>(r.total_ns)).c_str(),
                 static_cast<unsigned long long>(r.calls), report::nvprof_duration(r.average_ns()).c_str(),
                 report::nvprof_duration(static_cast<double>(r.min_ns)).c_str(),
                 report::nvprof_duration(static_cast<double>(r.max_ns)).c_str(), r.name.c_str());
  }
  if (rows.size() > 10) std::fprintf(stderr, "(%zu more in summary.md)\n", rows.size() - 10);
}

/// The request, checked before anything runs (a GPU is not needed to find these mistakes).
ProfileRequest checked_request(const ProfileOptions& options) {
  ProfileRequest request;
  request.command = options.command;
  request.collector = install_layout().collector;
  const char* verbose = std::getenv(profiler::env::kVerbose);
  request.verbose = verbose && std::string(verbose) == "1";
  try {
    request.cupti_metrics = cupti_metrics_for(options.metrics);
  } catch (const Error& e) {
    throw UsageError(std::string("--metrics: ") + e.what());
  }
  for (const auto& [flag, globs] : {std::pair{"--nvtx", &options.nvtx}, std::pair{"--kernel", &options.kernels}})
    for (const auto& g : *globs)
      if (const std::string problem = profiler::glob_problem(g); !problem.empty())
        throw UsageError(std::string(flag) + " '" + g + "': " + problem);
  if (options.no_trace && request.cupti_metrics.empty() && !options.source)
    throw UsageError("--no-trace needs --metrics or --source: there would be nothing to collect");
  // CUPTI 13.0 gives a kernel's per-instruction counts once per run (profiler/sass_source.h):
  // they cover all its launches, so nothing can choose some launches over others.
  if (options.source && (!options.nvtx.empty() || options.launch_skip || options.launch_count))
    throw UsageError(std::string(!options.nvtx.empty() ? "--nvtx" : options.launch_skip ? "--launch-skip" : "--launch-count") +
                     " cannot be used with --source: the source run counts every launch of a kernel and sums them "
                     "(CUPTI counts a kernel's instructions once per run): choose kernels with --kernel, and choose "
                     "launches in a profile without --source");
  if (request.command.empty()) throw UsageError("no program to profile: give it after --");
  if (std::error_code e; std::filesystem::is_directory(request.command.front(), e))
    throw UsageError("'" + request.command.front() + "' is a folder, not a program: give the program to profile after --");
  if (!program_exists(request.command.front()))
    throw UsageError("'" + request.command.front() + "': no such program (or not executable)");
  request.nvtx = options.nvtx;
  request.kernels = options.kernels;
  request.launch_skip = options.launch_skip;
  request.launch_count = options.launch_count;
  request.trace = !options.no_trace;
  request.replay = options.replay;
  request.cache_control = options.cache_control;
  if (options.source) request.source_metrics = report::source_line_metrics();
  return request;
}

}  // namespace

int profile(const ProfileOptions& options) {
  const auto started = std::chrono::steady_clock::now();
  const ProfileRequest checked = checked_request(options);
  std::string why;
  if (!gpu_available(why)) {
    std::fprintf(stderr, "labbook: no CUDA GPU to profile on: %s\n", why.c_str());
    return kExitNoGpu;
  }
  ProfileRequest request = checked;
  const std::string out = options.out_dir.empty() ? default_out_dir(options.command.at(0)) : options.out_dir;
  request.work_dir = out + "/runs";
  // A trace-only run's outputs are written while the program ends: at 10^5 launches its
  // teardown takes as long as they do. They assume the exit code most programs give; the
  // summary and the measurement are written again where the program gave another.
  EarlyOutputs early;
  request.while_ending = [&](Measurement& m) {
    m.program.exit_code = 0;
    try {
      early = write_outputs_early(m, out);
    } catch (const std::exception&) {
      // Written again after the exit, where the failure is reported.
    }
  };
  struct HeldApartGoes {   // on every way out, a throw included
    const std::string& out;
    ~HeldApartGoes() {
      std::error_code error;
      std::filesystem::remove_all(early_folder(out), error);
    }
  } held_apart_goes{out};
  const ProfileOutcome outcome = profile_program(request);
  if (!outcome.given_while_ending || !outcome.collected) {   // written from another measurement, or none
    discard_early_outputs(early, out);
    early = {};
  }
  if (!outcome.collected) {
    std::fprintf(stderr, "labbook: %s\n", outcome.problem.c_str());
    return profile_exit_code(outcome.exit_code, false);
  }
  const Measurement& m = outcome.measurement;
  const auto reporting = std::chrono::steady_clock::now();
  int written = 0;
  std::size_t pictures = 0;
  std::vector<OutputSeconds> output_seconds;
  try {
    std::filesystem::create_directories(out);
    written = write_profile_outputs(m, out, &pictures, &output_seconds, early);
    // measurements.json holds every run's: their own files would be a second copy. Kept
    // when anything could not be written, the merged measurement perhaps among them.
    const char* keep = std::getenv("LABBOOK_KEEP_RUNS");
    if (written == kProfileOutputs && !(keep && std::string(keep) == "1")) profiler::discard_run_measurements(request);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "labbook: could not write to %s: %s\n", out.c_str(), e.what());
  }
  if (request.verbose) {
    std::fprintf(stderr, "labbook: %.3f s in all, %.3f s of it writing the report", profiler::seconds_since(started),
                 profiler::seconds_since(reporting));
    for (std::size_t i = 0; i < output_seconds.size(); ++i)
      std::fprintf(stderr, "%s%s %.3f s%s", i ? ", " : " (", output_seconds[i].what.c_str(), output_seconds[i].seconds,
                   output_seconds[i].early ? " while the program ended" : "");
    std::fprintf(stderr, "%s\n", output_seconds.empty() ? "" : ")");
  }
  print_gpu_activities(m);
  for (const auto& issue : m.issues) std::fprintf(stderr, "labbook: note: %s: %s\n", issue.code.c_str(), issue.message.c_str());
  std::fprintf(stderr,
               "labbook: %zu kernels, %zu copies, %zu ranges; program exit code %d (%s)\n"
               "labbook: wrote %d of %d outputs to %s%s\n",
               m.kernels.size(), m.copies.size(), m.ranges.size(), outcome.exit_code,
               m.program.stop_reason.empty() ? "collection end unknown" : m.program.stop_reason.c_str(), written,
               kProfileOutputs, out.c_str(),
               written == kProfileOutputs
                   ? (" (open summary.html in a browser; " + std::to_string(pictures) + " pictures beside it)").c_str()
                   : "");
  return profile_exit_code(outcome.exit_code, written > 0);
}

int summarize(const std::string& measurement, const std::string& out_dir) {
  std::size_t pictures = 0;
  if (write_profile_outputs(read_measurement(measurement), out_dir, &pictures) < kProfileOutputs) return kExitFailure;
  std::printf("labbook: wrote %zu files to %s: summary.html (open it in a browser), summary.md, summary.json, "
              "measurements.json, trace.json.gz, timeline.svg, labbook.css and %zu pictures\n",
              kProfileFiles + pictures, out_dir.c_str(), pictures);
  return 0;
}

}  // namespace labbook::cli
