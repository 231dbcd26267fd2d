// The host side of the range profiler: the chip's counters, the config image of the metrics
// and, with application replay, the plan of which run collects which pass.
#include <algorithm>
#include <chrono>
#include <cstdio>

#include <cupti.h>
#include <cupti_profiler_target.h>
#include <cupti_target.h>

#include "availability_cache.h"
#include "cache_folder.h"
#include "cupti_status.h"
#include "pass_planner.h"
#include "range_profiler_state.h"
#include "replay_choice.h"
#include "stopwatch.h"
#include "labbook/model/text.h"

namespace labbook::profiler {

namespace {
// Ranges (kernels) per counter-data image with kernel replay: each kernel's passes are
// collected, and evaluated, before the next kernel starts. (With CUPTI's own kernel replay,
// which handled the whole image on every pass, lab 4's 80 kernels at 2 passes took 6.6 s
// with 256 ranges per image, 3.0 s with 1: H100.)
constexpr std::size_t kKernelReplayRanges = 1;
// Without replay an image costs nothing per pass: one per many kernels saves the stop,
// decode and restart after each.
constexpr std::size_t kSinglePassRanges = kApplicationReplayImageLaunches;

/// Where this device's counter availability is kept between runs; "" where it is not.
std::string kept_availability_path(CUdevice dev) {
  AvailabilityKey key = host_availability_key();
  CUuuid uuid{};
  if (cuDeviceGetUuid(&uuid, dev) == CUDA_SUCCESS) {
    char hex[2 * sizeof uuid.bytes + 1];
    for (std::size_t i = 0; i < sizeof uuid.bytes; ++i)
      std::snprintf(hex + 2 * i, 3, "%02x", static_cast<unsigned char>(uuid.bytes[i]));
    key.device_uuid = hex;
  }
  std::uint32_t version = 0;
  if (cuptiGetVersion(&version) == CUPTI_SUCCESS) key.cupti_version = static_cast<int>(version);
  return availability_cache_file(cache_folder(kAvailabilityCacheKind), key);
}
}  // namespace

bool RangeProfiler::prepare_host(CUcontext ctx, std::uint32_t device) {
  auto stage_started = std::chrono::steady_clock::now();
  const auto stage_done = [&stage_started](double& seconds) {   // where the host set-up goes
    seconds += seconds_since(stage_started);
    stage_started = std::chrono::steady_clock::now();
  };
  CUdevice dev = 0;
  int major = 0, minor = 0;
  if (cuDeviceGet(&dev, static_cast<int>(device)) == CUDA_SUCCESS &&
      cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev) == CUDA_SUCCESS &&
      cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev) == CUDA_SUCCESS &&
      major * 10 + minor < 75) {
    disable("metrics_unsupported",
            "CUPTI's Range Profiler, which labbook uses for metrics, needs compute capability 7.5 or newer; GPU " +
                std::to_string(device) + " is " + std::to_string(major) + "." + std::to_string(minor) +
                ". The timeline was still recorded.");
    return false;
  }
  auto chip = LABBOOK_PARAMS(CUpti_Device_GetChipName_Params);
  chip.deviceIndex = device;
  if (CUptiResult s = cuptiDeviceGetChipName(&chip); s != CUPTI_SUCCESS) {
    disable("metrics_unsupported", describe_call("cuptiDeviceGetChipName", s));
    return false;
  }

  std::vector<std::uint8_t> availability;
  if (!read_availability(ctx, dev, availability)) return false;
  stage_done(host_stages_.availability);
  auto host = std::make_unique<HostConfig>();
  host->chip = chip.pChipName;
  host->availability = std::move(availability);
  auto init = LABBOOK_PARAMS(CUpti_Profiler_Host_Initialize_Params);
  CUptiResult s = CUPTI_SUCCESS;
  init.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
  init.pChipName = chip.pChipName;
  init.pCounterAvailabilityImage = host->availability.data();
  if (s = cuptiProfilerHostInitialize(&init); s != CUPTI_SUCCESS) {
    disable("metrics_unsupported", describe_call("cuptiProfilerHostInitialize", s));
    return false;
  }
  host->host = init.pHostObject;
  host_ = std::move(host);
  stage_done(host_stages_.host_object);

  // Name each metric this chip does not know, rather than failing on the whole set.
  std::vector<std::string> unknown;
  for (const auto& m : metrics_) {
    auto props = LABBOOK_PARAMS(CUpti_Profiler_Host_GetMetricProperties_Params);
    props.pHostObject = host_->host;
    props.pMetricName = m.c_str();
    if (cuptiProfilerHostGetMetricProperties(&props) != CUPTI_SUCCESS) unknown.push_back(m);
  }
  if (!unknown.empty()) {
    issues_.add("metric_unavailable", "not available on " + host_->chip + ": " + join(unknown, ", "));
    std::vector<std::string> kept;
    for (const auto& m : metrics_)
      if (std::find(unknown.begin(), unknown.end(), m) == unknown.end()) kept.push_back(m);
    use_metrics(std::move(kept));
    if (metrics_.empty()) {
      disabled_ = true;
      return false;
    }
  }

  if (replay_.application && !plan_passes(host_->availability)) return false;
  stage_done(host_stages_.metrics_and_plan);

  auto add = LABBOOK_PARAMS(CUpti_Profiler_Host_ConfigAddMetrics_Params);
  add.pHostObject = host_->host;
  add.ppMetricNames = metric_ptrs_.data();
  add.numMetrics = metric_ptrs_.size();
  if (s = cuptiProfilerHostConfigAddMetrics(&add); s != CUPTI_SUCCESS) {
    disable("metrics_unsupported", describe_call("cuptiProfilerHostConfigAddMetrics", s));
    return false;
  }
  auto size = LABBOOK_PARAMS(CUpti_Profiler_Host_GetConfigImageSize_Params);
  size.pHostObject = host_->host;
  if (s = cuptiProfilerHostGetConfigImageSize(&size); s != CUPTI_SUCCESS) {
    disable("metrics_unsupported", describe_call("cuptiProfilerHostGetConfigImageSize", s));
    return false;
  }
  host_->config_image.resize(size.configImageSize);
  auto image = LABBOOK_PARAMS(CUpti_Profiler_Host_GetConfigImage_Params);
  image.pHostObject = host_->host;
  image.configImageSize = host_->config_image.size();
  image.pConfigImage = host_->config_image.data();
  if (s = cuptiProfilerHostGetConfigImage(&image); s != CUPTI_SUCCESS) {
    disable("metrics_unsupported", describe_call("cuptiProfilerHostGetConfigImage", s));
    return false;
  }
  auto passes = LABBOOK_PARAMS(CUpti_Profiler_Host_GetNumOfPasses_Params);
  passes.configImageSize = host_->config_image.size();
  passes.pConfigImage = host_->config_image.data();
  if (s = cuptiProfilerHostGetNumOfPasses(&passes); s != CUPTI_SUCCESS) {
    disable("metrics_unsupported", describe_call("cuptiProfilerHostGetNumOfPasses", s));
    return false;
  }
  passes_ = static_cast<int>(passes.numOfPasses);
  stage_done(host_stages_.config_image);
  user_replay_ = !replay_.application || passes_ == 1;
  carried_ = replay_.application && passes_ > 1;
  capacity_ = !replay_.application ? kKernelReplayRanges
              : replay_.expected_launches
                  ? std::clamp<std::size_t>(static_cast<std::size_t>(*replay_.expected_launches), 1, kSinglePassRanges)
                  : kSinglePassRanges;
  if (const auto asked = ranges_per_image_asked())
    capacity_ = std::min<std::size_t>(capacity_, static_cast<std::size_t>(*asked));
  if (replay_.application && passes_ != run_.passes) {
    disable("metrics_lost", join(metrics_, ", ") + " need " + std::to_string(passes_) + " passes, where the plan in " +
                                replay_.plan_path + " gives them " + std::to_string(run_.passes) + " runs");
    return false;
  }
  return true;
}

// Counter availability must be read before a profiler is enabled on the context; it is also
// where denied counters show up first. An image an earlier run kept under the same key
// (availability_cache.h) is taken instead where it has the size CUPTI asks for now.
bool RangeProfiler::read_availability(CUcontext ctx, CUdevice dev, std::vector<std::uint8_t>& image) {
  auto avail = LABBOOK_PARAMS(CUpti_Profiler_GetCounterAvailability_Params);
  avail.ctx = ctx;
  CUptiResult s = cuptiProfilerGetCounterAvailability(&avail);   // the size alone
  const std::string kept = kept_availability_path(dev);
  if (s == CUPTI_SUCCESS) {
    image = read_kept_availability(kept, avail.counterAvailabilityImageSize);
    if (!image.empty()) {
      availability_kept_at_ = kept;
      return true;
    }
    image.resize(avail.counterAvailabilityImageSize);
    avail.pCounterAvailabilityImage = image.data();
    s = cuptiProfilerGetCounterAvailability(&avail);
  }
  if (is_permission_error(s)) {
    disable("counters_denied", kDeniedHow);
    return false;
  }
  if (s != CUPTI_SUCCESS) {
    disable("metrics_unsupported", describe_call("cuptiProfilerGetCounterAvailability", s));
    return false;
  }
  keep_availability(kept, image);
  return true;
}

// The profiler was refused, perhaps for a kept image that no longer holds: the next run asks
// CUPTI again.
void RangeProfiler::forget_kept_availability() {
  if (availability_kept_at_.empty()) return;
  std::remove(availability_kept_at_.c_str());
  availability_kept_at_.clear();
}

bool RangeProfiler::plan_passes(const std::vector<std::uint8_t>& availability) {
  // The first run plans and writes the plan; later runs read it, so that every run agrees.
  PassPlan plan = read_plan(replay_.plan_path);
  if (!plan_covers(plan, metrics_)) {
    // One batch holds every launch: the trace run counted them, nothing stops the run between
    // them, and no smaller image was asked for.
    const Carrying carrying = carrying_for(replay_.without_stops, replay_.expected_launches, ranges_per_image_asked());
    const std::string cached = cached_plan_path(host_->chip, metrics_, carrying);
    if (!cached.empty()) plan = read_plan(cached);
    if (!plan_covers(plan, metrics_)) {
      plan = plan_pass_groups(host_->chip, availability, metrics_, carrying);
      if (!plan.problem.empty()) {
        disable("metrics_unsupported", plan.problem);
        return false;
      }
      if (!cached.empty()) write_plan(cached, plan);
    }
    write_plan(replay_.plan_path, plan);
  }
  planned_runs_ = plan.runs();
  const std::optional<RunPass> run = plan.run(replay_.pass);
  if (!run) {
    disable("metrics_lost", "run " + std::to_string(replay_.pass + 1) + " asked for, but the plan in " +
                                replay_.plan_path + " has " + std::to_string(planned_runs_));
    return false;
  }
  run_ = *run;
  use_metrics(plan.groups[run_.group].metrics);
  return true;
}

}  // namespace labbook::profiler
