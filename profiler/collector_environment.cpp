#include "collector_environment.h"

#include <unistd.h>

#include <cstdlib>

#include "collector.h"
#include "labbook/model/error.h"
#include "labbook/model/text.h"

namespace labbook::profiler {

namespace {

std::string environment(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

std::optional<std::uint64_t> environment_count(const char* name) {
  const std::string text = environment(name);
  if (text.empty()) return std::nullopt;
  std::size_t used = 0;
  unsigned long long value = 0;
  try {
    value = std::stoull(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || text[0] == '-')
    throw Error(std::string(name) + "='" + text + "': expected a whole number");
  return value;
}

}  // namespace

std::map<std::string, std::string> CollectorRun::environment() const {
  const auto count = [](const std::optional<std::uint64_t>& n) { return n ? std::to_string(*n) : std::string(); };
  return {
      {env::kMode, mode},
      {env::kOutput, output},
      {env::kMetrics, mode == "metrics" || mode == "source" ? join(metrics, ",") : ""},
      {env::kReplay, replay},
      {env::kCacheControl, cache_control},
      {env::kPass, std::to_string(pass)},
      {env::kPassPlan, pass_plan},
      {env::kNvtx, join(nvtx, ",")},
      {env::kKernels, join(kernels, ",")},
      {env::kLaunchSkip, count(launch_skip)},
      {env::kLaunchCount, count(launch_count)},
      {env::kSourceKernel, source_kernel},
      {env::kExpectedLaunches, count(expected_launches)},
      {env::kWithoutStops, without_stops ? "1" : ""},
      {env::kProfiledOnly, profiled_only ? "1" : ""},
  };
}

CollectorConfig CollectorConfig::from_environment() {
  CollectorConfig c;
  c.output = environment(env::kOutput);
  if (c.output.empty()) c.output = "labbook-" + std::to_string(::getpid()) + ".json";
  if (const auto fd = environment_count(env::kOutputFd)) c.output_fd = static_cast<int>(*fd);
  const std::string mode = environment(env::kMode);
  c.trace = mode.empty() || mode.find("trace") != std::string::npos;
  c.metrics = split(environment(env::kMetrics), ',');
  if (mode == "source") c.source_metrics = std::move(c.metrics), c.metrics.clear();
  c.filter.nvtx = split(environment(env::kNvtx), ',');
  c.filter.kernels = split(environment(env::kKernels), ',');
  c.filter.skip = environment_count(env::kLaunchSkip).value_or(0);
  c.filter.count = environment_count(env::kLaunchCount);
  c.verbose = environment(env::kVerbose) == "1";
  const std::string replay = environment(env::kReplay);
  if (!replay.empty() && replay != "kernel" && replay != "application")
    throw Error("LABBOOK_REPLAY='" + replay + "': expected kernel or application");
  c.application_replay = replay == "application";
  c.pass = static_cast<int>(environment_count(env::kPass).value_or(0));
  c.expected_launches = environment_count(env::kExpectedLaunches);
  c.without_stops = environment(env::kWithoutStops) == "1";
  c.profiled_only = environment(env::kProfiledOnly) == "1";
  c.ranges_per_image = environment_count(env::kRangesPerImage);
  c.pass_plan = environment(env::kPassPlan);
  c.source_kernel = environment(env::kSourceKernel);
  if (c.application_replay && c.pass_plan.empty()) c.pass_plan = c.output + ".pass-plan";
  const std::string cache = environment(env::kCacheControl);
  if (!cache.empty() && cache != "all" && cache != "none")
    throw Error("LABBOOK_CACHE_CONTROL='" + cache + "': expected all or none");
  c.flush_l2 = cache == "all";
  if (const std::string passes = environment(env::kL2Flush); !passes.empty()) {
    try {
      c.flush_passes = parse_flush_passes(passes);
    } catch (const Error& e) {
      throw Error("LABBOOK_L2_FLUSH='" + passes + "': " + e.what());
    }
  }
  return c;
}

}  // namespace labbook::profiler
