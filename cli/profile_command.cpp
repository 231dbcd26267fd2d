// `labbook profile -- PROGRAM ARGS`: any CUDA program, no code changes.
#include <cstdio>
#include <ctime>
#include <filesystem>

#include "commands.h"
#include "labbook/model/measurement_json.h"
#include "labbook/model/metric_catalog.h"
#include "profile_session.h"
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
}  // namespace

int profile(const ProfileOptions& options) {
  ProfileRequest request;
  request.command = options.command;
  request.cupti_metrics = cupti_metrics_for(options.metrics);   // throws on unknown names
  const std::string out = options.out_dir.empty() ? default_out_dir(options.command.at(0)) : options.out_dir;
  request.work_dir = out + "/runs";
  ProfileOutcome outcome = profile_program(request);
  write_measurement(outcome.measurement, out + "/measurements.json");
  report::write_chrome_trace(outcome.measurement, out + "/trace.json");
  std::printf("labbook: %zu kernels, %zu copies, %zu ranges, %zu issues -> %s/measurements.json, trace.json\n",
              outcome.measurement.kernels.size(), outcome.measurement.copies.size(),
              outcome.measurement.ranges.size(), outcome.measurement.issues.size(), out.c_str());
  return outcome.exit_code;
}

}  // namespace labbook::cli
