#include "collector_environment.h"

#include "labbook/model/text.h"

namespace labbook::profiler {

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
  };
}

}  // namespace labbook::profiler
