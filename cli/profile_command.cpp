// `labbook profile -- PROGRAM ARGS`: any CUDA program, no code changes.
// `labbook summary MEASUREMENT`: the same summary files from a measurement file.
#include <cstdio>
#include <ctime>
#include <filesystem>

#include "activity_summary.h"
#include "commands.h"
#include "gpu_probe.h"
#include "labbook/model/atomic_file.h"
#include "labbook/model/error.h"
#include "labbook/model/measurement_json.h"
#include "labbook/model/metric_catalog.h"
#include "profile_session.h"
#include "profile_summary.h"
#include "sheet_files.h"
#include "timeline_svg.h"
#include "trace_writer.h"

namespace labbook::cli {

namespace {

std::string default_out_dir(const std::string& program) {
  char stamp[32];
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  localtime_r(&t, &tm);
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
  return "labbook-out/" + std::filesystem::path(program).filename().string() + "-" + stamp;
}

/// The top of nvprof's "GPU activities" table, for the terminal.
void print_gpu_activities(const Measurement& m) {
  const auto rows = report::gpu_activities(m);
  if (rows.empty()) return;
  std::printf("%8s %10s %6s %10s %10s %10s  %s\n", "Time(%)", "Time", "Calls", "Avg", "Min", "Max", "Name");
  for (std::size_t i = 0; i < rows.size() && i < 10; ++i) {
    const auto& r = rows[i];
    std::printf("%7.2f%% %10s %6llu %10s %10s %10s  %s\n", r.share_pct,
                report::nvprof_duration(static_cast<double>(r.total_ns)).c_str(),
                static_cast<unsigned long long>(r.calls), report::nvprof_duration(r.average_ns()).c_str(),
                report::nvprof_duration(static_cast<double>(r.min_ns)).c_str(),
                report::nvprof_duration(static_cast<double>(r.max_ns)).c_str(), r.name.c_str());
  }
  if (rows.size() > 10) std::printf("(%zu more in summary.md)\n", rows.size() - 10);
}

}  // namespace

void write_profile_outputs(const Measurement& m, const std::string& out) {
  write_measurement(m, out + "/measurements.json");
  report::write_chrome_trace(m, out + "/trace.json");
  write_file_atomically(out + "/timeline.svg", report::timeline_svg(m));
  report::write_sheet(report::build_profile_summary(m, "timeline.svg"), out, "summary");
}

int profile(const ProfileOptions& options) {
  std::string why;
  if (!gpu_available(why)) {
    std::fprintf(stderr, "labbook: no CUDA GPU to profile on: %s\n", why.c_str());
    return kExitNoGpu;
  }
  ProfileRequest request;
  request.command = options.command;
  request.cupti_metrics = cupti_metrics_for(options.metrics);   // throws on unknown names
  request.nvtx = options.nvtx;
  request.kernels = options.kernels;
  request.launch_skip = options.launch_skip;
  request.launch_count = options.launch_count;
  request.trace = !options.no_trace;
  if (options.no_trace && request.cupti_metrics.empty()) throw Error("--no-trace needs --metrics: there would be nothing to collect");
  const std::string out = options.out_dir.empty() ? default_out_dir(options.command.at(0)) : options.out_dir;
  request.work_dir = out + "/runs";
  ProfileOutcome outcome = profile_program(request);
  const Measurement& m = outcome.measurement;
  write_profile_outputs(m, out);
  print_gpu_activities(m);
  for (const auto& issue : m.issues) std::printf("labbook: note: %s: %s\n", issue.code.c_str(), issue.message.c_str());
  std::printf("labbook: %zu kernels, %zu copies, %zu ranges; program exit code %d (%s)\n"
              "labbook: wrote %s/{summary.md,summary.html,timeline.svg,trace.json,measurements.json}\n",
              m.kernels.size(), m.copies.size(), m.ranges.size(), outcome.exit_code,
              m.program.stop_reason.empty() ? "collection end unknown" : m.program.stop_reason.c_str(), out.c_str());
  return outcome.exit_code;
}

int summarize(const std::string& measurement, const std::string& out_dir) {
  write_profile_outputs(read_measurement(measurement), out_dir);
  std::printf("labbook: wrote %s/{summary.md,summary.html,timeline.svg,trace.json,measurements.json}\n", out_dir.c_str());
  return 0;
}

}  // namespace labbook::cli
