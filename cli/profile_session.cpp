#include "profile_session.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "labbook/model/error.h"
#include "labbook/model/measurement_json.h"
#include "labbook/model/merge.h"
#include "labbook/model/text.h"
#include "program_runner.h"

namespace labbook::cli {

namespace {

/// One run of the program with the collector injected; returns its exit code.
int run_collected(const ProfileRequest& request, const std::string& mode, const std::string& output) {
  std::map<std::string, std::string> env = {
      {"CUDA_INJECTION64_PATH", LABBOOK_COLLECTOR_PATH},
      {"NVTX_INJECTION64_PATH", LABBOOK_CUPTI_LIBRARY},
      {"LABBOOK_MODE", mode},
      {"LABBOOK_OUTPUT", output},
      {"LABBOOK_METRICS", mode == "metrics" ? join(request.cupti_metrics, ",") : ""},
      {"LABBOOK_NVTX", join(request.nvtx, ",")},
      {"LABBOOK_KERNELS", join(request.kernels, ",")},
      {"LABBOOK_LAUNCH_SKIP", request.launch_skip ? std::to_string(*request.launch_skip) : ""},
      {"LABBOOK_LAUNCH_COUNT", request.launch_count ? std::to_string(*request.launch_count) : ""},
  };
  // CUPTI loads libnvperf_host/target with dlopen: they must be on the loader path.
  const char* old = std::getenv("LD_LIBRARY_PATH");
  env["LD_LIBRARY_PATH"] = std::string(LABBOOK_CUPTI_LIBRARY_DIR) + (old && *old ? ":" + std::string(old) : "");
  std::filesystem::remove(output);
  std::fprintf(stderr, "labbook: %s run: %s\n", mode.c_str(), join(request.command, " ").c_str());
  const auto started = std::chrono::steady_clock::now();
  const int exit_code = run_program(request.command, env);
  std::fprintf(stderr, "labbook: %s run: %.2f s, exit code %d\n", mode.c_str(),
               std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count(), exit_code);
  return exit_code;
}

Measurement read_run(const std::string& path, const std::string& mode, int exit_code) {
  if (!std::filesystem::exists(path))
    throw Error("the " + mode + " run (exit code " + std::to_string(exit_code) +
                ") left no measurement at " + path +
                ": the program may not use CUDA, or the collector could not start");
  return read_measurement(path);
}

}  // namespace

ProfileOutcome profile_program(const ProfileRequest& request) {
  std::filesystem::create_directories(request.work_dir);
  const std::string trace_path = request.work_dir + "/trace-run.json";
  const std::string metrics_path = request.work_dir + "/metrics-run.json";

  ProfileOutcome outcome;
  if (!request.trace) {
    if (request.cupti_metrics.empty()) throw Error("nothing to collect: no trace run and no metrics");
    outcome.exit_code = run_collected(request, "metrics", metrics_path);
    outcome.measurement = read_run(metrics_path, "metrics", outcome.exit_code);
    outcome.measurement.program.command = request.command;
    outcome.measurement.program.exit_code = outcome.exit_code;
    return outcome;
  }
  outcome.exit_code = run_collected(request, "trace", trace_path);
  outcome.measurement = read_run(trace_path, "trace", outcome.exit_code);
  if (!request.cupti_metrics.empty()) {
    if (outcome.exit_code != 0) {
      outcome.measurement.issues.push_back(
          {"metrics_skipped", "metrics were not collected because the program failed (exit code " +
                                  std::to_string(outcome.exit_code) + ")"});
    } else {
      const int metrics_exit = run_collected(request, "metrics", metrics_path);
      if (metrics_exit != 0) outcome.exit_code = metrics_exit;
      outcome.measurement = merge_runs(std::move(outcome.measurement),
                                       read_run(metrics_path, "metrics", metrics_exit));
    }
  }
  outcome.measurement.program.command = request.command;
  outcome.measurement.program.exit_code = outcome.exit_code;
  return outcome;
}

}  // namespace labbook::cli
