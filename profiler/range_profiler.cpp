#include "range_profiler.h"

#include <algorithm>
#include <chrono>

#include <cupti_profiler_target.h>

#include "cupti_status.h"
#include "device_checkpoint.h"
#include "overhead_report.h"
#include "range_profiler_state.h"
#include "stopwatch.h"
#include "labbook/model/text.h"

namespace labbook::profiler {

namespace {
// An image holds counters for every range it can take (lab 4's metric set: 88 ranges in
// 0.6 to 11.4 MB, depending on the pass, on an H200), and a metrics run with room for 512
// ranges held 1.1 GB of host memory (88: 0.7 GB; ncu 0.4 GB): an image holds as many ranges as
// fit this many bytes. A stop and decode every hundred ranges costs little.
constexpr std::size_t kCounterDataBytes = std::size_t{16} << 20;
}  // namespace

RangeProfiler::RangeProfiler(std::vector<std::string> metrics, ReplayOptions replay, IssueLog& issues)
    : replay_(std::move(replay)), issues_(issues) {
  use_metrics(std::move(metrics));
  if (metrics_.empty()) disabled_ = true;
}

RangeProfiler::~RangeProfiler() { take_early_initialization(); }

void RangeProfiler::use_metrics(std::vector<std::string> metrics) {
  metrics_ = std::move(metrics);
  metric_ptrs_.clear();
  for (const auto& m : metrics_) metric_ptrs_.push_back(m.c_str());
}

void RangeProfiler::disable(const std::string& code, const std::string& message) {
  if (!disabled_) issues_.add(code, message);
  disabled_ = true;
  forget_kept_availability();   // in case the kept image was why: the next run asks CUPTI
}

bool RangeProfiler::start(CUcontext ctx) {
  const CUptiResult early = take_early_initialization();
  if (!profiler_initialized_) {
    auto init = LABBOOK_PARAMS(CUpti_Profiler_Initialize_Params);
    CUptiResult s = early;
    if (s != CUPTI_SUCCESS) s = cuptiProfilerInitialize(&init);   // not tried, or refused during cuInit: again here
    if (s != CUPTI_SUCCESS) {
      disable(is_permission_error(s) ? "counters_denied" : "metrics_unsupported",
              is_permission_error(s) ? kDeniedHow : describe_call("cuptiProfilerInitialize", s));
      return false;
    }
    profiler_initialized_ = true;
  }
  std::uint32_t device = 0;
  if (CUptiResult s = cuptiGetDeviceId(ctx, &device); s != CUPTI_SUCCESS) {
    disable("metrics_unsupported", describe_call("cuptiGetDeviceId", s));
    return false;
  }
  // One config image serves every context: labbook profiles one GPU model per run.
  if (!host_) {
    const auto started = std::chrono::steady_clock::now();
    const bool prepared = prepare_host(ctx, device);
    host_setup_seconds_ += seconds_since(started);
    if (!prepared) return false;
  }

  auto c = std::make_unique<Context>();
  c->ctx = ctx;
  c->name = std::to_string(device) + "." + std::to_string(contexts_on_device_[device]++);
  auto enable = LABBOOK_PARAMS(CUpti_RangeProfiler_Enable_Params);
  enable.ctx = ctx;
  if (CUptiResult s = cuptiRangeProfilerEnable(&enable); s != CUPTI_SUCCESS) {
    disable(is_permission_error(s) ? "counters_denied" : "metrics_unsupported",
            is_permission_error(s) ? kDeniedHow : describe_call("cuptiRangeProfilerEnable", s));
    return false;
  }
  c->object = enable.pRangeProfilerObject;

  std::size_t bytes = 0;
  if (!counter_data_size(*c, bytes)) return false;
  // The first context sizes the images of all: every run must cut its batches alike. A group
  // carried from run to run keeps room for every launch: its later batches get no values.
  if (contexts_.empty() && !carried_ && bytes > kCounterDataBytes && capacity_ > 1) {
    capacity_ = std::max<std::size_t>(1, kCounterDataBytes / (bytes / capacity_));
    if (!counter_data_size(*c, bytes)) return false;
  }
  c->counter_data.resize(bytes);
  counter_data_bytes_ += bytes;
  contexts_[ctx] = std::move(c);
  return true;
}

bool RangeProfiler::counter_data_size(const Context& c, std::size_t& bytes) {
  auto size = LABBOOK_PARAMS(CUpti_RangeProfiler_GetCounterDataSize_Params);
  size.pRangeProfilerObject = c.object;
  size.pMetricNames = metric_ptrs_.data();
  size.numMetrics = metric_ptrs_.size();
  size.maxNumOfRanges = capacity_;
  size.maxNumRangeTreeNodes = static_cast<std::uint32_t>(capacity_);
  if (CUptiResult s = cuptiRangeProfilerGetCounterDataSize(&size); s != CUPTI_SUCCESS) {
    disable("metrics_unsupported", describe_call("cuptiRangeProfilerGetCounterDataSize", s));
    return false;
  }
  bytes = size.counterDataSize;
  return true;
}

std::optional<std::uint64_t> RangeProfiler::ranges_per_image_asked() const {
  if (replay_.ranges_per_image && *replay_.ranges_per_image > 0) return replay_.ranges_per_image;
  return std::nullopt;
}

bool RangeProfiler::set_config(Context& c) {
  const ScopeSeconds timed(pass_control_seconds_);
  ++c.batch;
  if (carried_ && run_.pass > 0) {
    if (!load_carried_data(c)) return false;   // the batch goes unprofiled, said there
  } else {
    auto init = LABBOOK_PARAMS(CUpti_RangeProfiler_CounterDataImage_Initialize_Params);
    init.pRangeProfilerObject = c.object;
    init.counterDataSize = c.counter_data.size();
    init.pCounterData = c.counter_data.data();
    if (CUptiResult s = cuptiRangeProfilerCounterDataImageInitialize(&init); s != CUPTI_SUCCESS) {
      disable("metrics_unsupported", describe_call("cuptiRangeProfilerCounterDataImageInitialize", s));
      return false;
    }
  }
  auto config = LABBOOK_PARAMS(CUpti_RangeProfiler_SetConfig_Params);
  config.pRangeProfilerObject = c.object;
  config.configSize = host_->config_image.size();
  config.pConfig = host_->config_image.data();
  config.counterDataImageSize = c.counter_data.size();
  config.pCounterDataImage = c.counter_data.data();
  config.range = CUPTI_AutoRange;   // one range per kernel launch
  // User replay: one pass, so nothing is replayed, or labbook's kernel replay, which launches
  // the kernel once per pass. Application replay: this run is one pass of several, each a run
  // of the program.
  config.replayMode = user_replay_ ? CUPTI_UserReplay : CUPTI_ApplicationReplay;
  config.maxRangesPerPass = capacity_;
  config.numNestingLevels = 1;
  config.minNestingLevel = 1;
  config.passIndex = carried_ ? static_cast<std::size_t>(run_.pass) : 0;
  config.targetNestingLevel = 1;
  if (CUptiResult s = cuptiRangeProfilerSetConfig(&config); s != CUPTI_SUCCESS) {
    disable("metrics_unsupported", describe_call("cuptiRangeProfilerSetConfig", s));
    return false;
  }
  return true;
}

bool RangeProfiler::start_pass(Context& c) {
  auto start = LABBOOK_PARAMS(CUpti_RangeProfiler_Start_Params);
  start.pRangeProfilerObject = c.object;
  CUptiResult s = CUPTI_SUCCESS;
  {
    const ScopeSeconds timed(pass_control_seconds_);
    s = cuptiRangeProfilerStart(&start);
  }
  if (s != CUPTI_SUCCESS) {
    disable(is_permission_error(s) ? "counters_denied" : "metrics_unsupported",
            is_permission_error(s) ? kDeniedHow : describe_call("cuptiRangeProfilerStart", s));
    return false;
  }
  c.running = true;
  return true;
}

void RangeProfiler::before_launch(CUcontext ctx, std::uint64_t launch, const std::string& kernel,
                                  const std::function<void()>& just_before,
                                  const KernelRelauncher& relauncher) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (disabled_) return;
  auto it = contexts_.find(ctx);
  if (it == contexts_.end()) {
    const auto started = std::chrono::steady_clock::now();
    const bool ok = start(ctx);
    setup_seconds_ += seconds_since(started);
    if (!ok) return;
    it = contexts_.find(ctx);
  }
  Context& c = *it->second;
  if (c.running && c.pending.size() == capacity_) evaluate_batch(c);
  // CUPTI 13.0 carries a context's counter data from run to run for its first batch only
  // (docs/metrics.md, "Application replay in batches"): the launches after it go unprofiled.
  if (carried_ && !c.running && c.batch >= 0) {
    ++c.left_out;
    return;
  }
  if (!c.running) {
    const bool replayed = !replay_.application && passes_ > 1;
    if (!set_config(c)) return;
    if (replayed && !replay_earlier_passes(c, kernel, just_before, relauncher)) return;
    if (!start_pass(c)) return;
  }
  c.pending.push_back({launch, kernel});
  if (c.batch == 0) ++c.first_batch;
  if (just_before) just_before();
}

void RangeProfiler::skip_launch(CUcontext ctx) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = contexts_.find(ctx);
  if (it != contexts_.end() && it->second->running) evaluate_batch(*it->second);
}

void RangeProfiler::finish(CUcontext ctx) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = contexts_.find(ctx);
  if (it == contexts_.end()) return;
  Context& c = *it->second;
  if (c.running) evaluate_batch(c);
  if (c.left_out && c.first_batch > 0)   // with no first batch, load_carried_data() said why
    issues_.add("metrics_lost", join(metrics_, ", ") + ": " + std::to_string(c.left_out) + " launches after the first " +
                                    std::to_string(c.first_batch) + " have no value: these metrics take " +
                                    std::to_string(run_.passes) + " runs of the program, and CUPTI carries counters " +
                                    "from run to run only for a context's first batch of launches (docs/metrics.md); " +
                                    "--replay kernel collects them all");
  auto disable_params = LABBOOK_PARAMS(CUpti_RangeProfiler_Disable_Params);
  disable_params.pRangeProfilerObject = c.object;
  cuptiRangeProfilerDisable(&disable_params);
  if (c.checkpoint) checkpoint_seconds_ += c.checkpoint->seconds();
  contexts_.erase(it);
}

void RangeProfiler::finish_all() {
  const CUptiResult early = take_early_initialization();
  std::vector<CUcontext> open;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const auto& [ctx, c] : contexts_) open.push_back(ctx);
  }
  for (CUcontext ctx : open) finish(ctx);
  std::lock_guard<std::mutex> lock(mutex_);
  if (early == CUPTI_SUCCESS) profiler_initialized_ = true;   // also where no launch was profiled
  if (host_) {
    auto deinit = LABBOOK_PARAMS(CUpti_Profiler_Host_Deinitialize_Params);
    deinit.pHostObject = host_->host;
    cuptiProfilerHostDeinitialize(&deinit);
    host_.reset();
  }
  if (profiler_initialized_) {
    auto deinit = LABBOOK_PARAMS(CUpti_Profiler_DeInitialize_Params);
    cuptiProfilerDeInitialize(&deinit);
    profiler_initialized_ = false;
  }
}

std::map<std::uint64_t, std::map<std::string, double>> RangeProfiler::results() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return results_;
}

int RangeProfiler::passes() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return replay_.application ? planned_runs_ : passes_;
}

void RangeProfiler::add_costs(ProfilerOverhead& costs) const {
  std::lock_guard<std::mutex> lock(mutex_);
  costs.passes = replay_.application ? planned_runs_ : passes_;
  costs.setup_seconds = setup_seconds_;
  costs.host_setup_seconds = host_setup_seconds_;
  costs.availability_seconds = host_stages_.availability;
  costs.host_object_seconds = host_stages_.host_object;
  costs.metrics_and_plan_seconds = host_stages_.metrics_and_plan;
  costs.config_image_seconds = host_stages_.config_image;
  costs.pass_control_seconds = pass_control_seconds_;
  costs.evaluation_seconds = evaluation_seconds_;
  costs.checkpoint_seconds = checkpoint_seconds_;
  for (const auto& [ctx, c] : contexts_)
    if (c->checkpoint) costs.checkpoint_seconds += c->checkpoint->seconds();
  costs.ranges_per_image = capacity_;
  costs.counter_data_bytes = counter_data_bytes_;
}

}  // namespace labbook::profiler
