#include "range_profiler.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>

#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>

#include "cupti_status.h"
#include "device_checkpoint.h"
#include "pass_planner.h"
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
// But an image holds counters for every range it can take (lab 4's metric set: 88 ranges in
// 0.6 to 11.4 MB, depending on the pass, on an H200), and a metrics run with room for 512
// ranges held 1.1 GB of host memory (88: 0.7 GB; ncu 0.4 GB): an image holds as many ranges as
// fit this many bytes. A stop and decode every hundred ranges costs little.
constexpr std::size_t kCounterDataBytes = std::size_t{16} << 20;
// All metrics may be one group carried from run to run (Carrying::AllInOneBatch) where every
// launch to profile fits the first batch, which then holds them all whatever its bytes: up to
// this many (lab 4's set, 3 passes: about 0.2 MB a range).
constexpr std::uint64_t kOneGroupLaunches = 128;


const char* kDeniedHow =
    "GPU performance counters are restricted to administrators on this machine "
    "(CUPTI_ERROR_INSUFFICIENT_PRIVILEGES). Timings and the timeline were still recorded. "
    "To allow counters, run as root, or add 'options nvidia NVreg_RestrictProfilingToAdminUsers=0' "
    "to a file in /etc/modprobe.d/ and reboot "
    "(https://developer.nvidia.com/CUPTI_ERROR_INSUFFICIENT_PRIVILEGES).";
}  // namespace

struct RangeProfiler::HostConfig {
  // Held while the host object lives: CUPTI reads it after the call that took it (a probe
  // that freed it first crashed in libnvperf_host making the config image; H200, CUDA 13.0).
  std::vector<std::uint8_t> availability;
  CUpti_Profiler_Host_Object* host = nullptr;
  std::vector<std::uint8_t> config_image;
  std::string chip;
};

struct RangeProfiler::Context {
  struct Launch {
    std::uint64_t index;
    std::string kernel;                 // mangled name
  };
  CUcontext ctx = nullptr;
  std::string name;                     // device, then the n-th context profiled on it: the same in every run
  int batch = -1;                       // batches configured so far - 1, the same in every run
  CUpti_RangeProfiler_Object* object = nullptr;
  std::vector<std::uint8_t> counter_data;
  std::vector<Launch> pending;          // this batch's launches, in launch order
  std::vector<std::string> carried_kernels;   // the batch's kernels in the run that collected the passes before
  bool running = false;                 // between Start and Stop; then pending is not empty
  std::size_t first_batch = 0;          // its launches, in a run of several passes
  std::size_t left_out = 0;             // the launches after it
  std::unique_ptr<DeviceCheckpoint> checkpoint;   // kernel replay of a set of several passes
};

RangeProfiler::RangeProfiler(std::vector<std::string> metrics, ReplayOptions replay, IssueLog& issues)
    : replay_(std::move(replay)), issues_(issues) {
  use_metrics(std::move(metrics));
  if (metrics_.empty()) disabled_ = true;
}

RangeProfiler::~RangeProfiler() = default;

void RangeProfiler::use_metrics(std::vector<std::string> metrics) {
  metrics_ = std::move(metrics);
  metric_ptrs_.clear();
  for (const auto& m : metrics_) metric_ptrs_.push_back(m.c_str());
}

void RangeProfiler::disable(const std::string& code, const std::string& message) {
  if (!disabled_) issues_.add(code, message);
  disabled_ = true;
}

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

  // Counter availability must be read before a profiler is enabled on the context; it is
  // also where denied counters show up first.
  auto avail = LABBOOK_PARAMS(CUpti_Profiler_GetCounterAvailability_Params);
  avail.ctx = ctx;
  CUptiResult s = cuptiProfilerGetCounterAvailability(&avail);
  std::vector<std::uint8_t> availability(avail.counterAvailabilityImageSize);
  if (s == CUPTI_SUCCESS) {
    avail.pCounterAvailabilityImage = availability.data();
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

  stage_done(host_stages_.availability);
  auto host = std::make_unique<HostConfig>();
  host->chip = chip.pChipName;
  host->availability = std::move(availability);
  auto init = LABBOOK_PARAMS(CUpti_Profiler_Host_Initialize_Params);
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

bool RangeProfiler::plan_passes(const std::vector<std::uint8_t>& availability) {
  // The first run plans and writes the plan; later runs read it, so that every run agrees.
  PassPlan plan = read_plan(replay_.plan_path);
  if (!plan_covers(plan, metrics_)) {
    // One batch holds every launch: the trace run counted them, nothing stops the run between
    // them, and no smaller image was asked for.
    const auto& launches = replay_.expected_launches;
    const bool one_batch = replay_.without_stops && launches && *launches <= kOneGroupLaunches &&
                           *launches <= ranges_per_image_asked().value_or(*launches);
    const Carrying carrying = one_batch ? Carrying::AllInOneBatch : Carrying::MultiPassMetricsOnly;
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

bool RangeProfiler::start(CUcontext ctx) {
  if (!profiler_initialized_) {
    auto init = LABBOOK_PARAMS(CUpti_Profiler_Initialize_Params);
    if (CUptiResult s = cuptiProfilerInitialize(&init); s != CUPTI_SUCCESS) {
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

std::size_t RangeProfiler::ranges_per_image() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return capacity_;
}

std::size_t RangeProfiler::counter_data_bytes() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return counter_data_bytes_;
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

// Kernel replay of a set of several passes: the memory saved, then every pass but the last
// launched here, each after the memory is put back and `just_before` (the flush) has run;
// the memory is put back once more for the program's own launch, the last pass. False, with
// the profiler stopped, where the kernel cannot be replayed: it then runs unprofiled.
bool RangeProfiler::replay_earlier_passes(Context& c, const std::string& kernel,
                                          const std::function<void()>& just_before,
                                          const KernelRelauncher& relauncher) {
  // `relaunched`: the kernel ran again, so the memory must go back as it was for the
  // program's own launch; where even that fails, the program may compute otherwise.
  const auto give_up = [&](const std::string& why, bool relaunched) {
    if (c.running) {
      auto stop = LABBOOK_PARAMS(CUpti_RangeProfiler_Stop_Params);
      stop.pRangeProfilerObject = c.object;
      cuptiRangeProfilerStop(&stop);
      c.running = false;
    }
    const bool memory_changed = relaunched && !c.checkpoint->restore().empty();
    issues_.add(memory_changed ? "replay_failed" : "metrics_lost",
                demangled(kernel) + ": no metrics: " + why +
                    (memory_changed ? "; the kernel already ran again, so what the program computed after it may "
                                      "differ from a run without labbook: profile with --replay application"
                                    : ""));
    return false;
  };
  if (!relauncher.relaunch) return give_up("this launch cannot be replayed in the run", false);
  // Before the save: the module's __device__ variables must be in it. A kernel whose module
  // cannot be loaded here is loaded by its launch, as it always was.
  if (relauncher.load) relauncher.load();
  if (!c.checkpoint) c.checkpoint = std::make_unique<DeviceCheckpoint>(c.ctx);
  if (const std::string problem = c.checkpoint->save(); !problem.empty()) return give_up(problem, false);
  for (int pass = 0; pass + 1 < passes_; ++pass) {
    if (pass > 0)
      if (const std::string problem = c.checkpoint->restore(); !problem.empty()) return give_up(problem, true);
    if (!start_pass(c)) return give_up("the profiler could not start a pass", pass > 0);
    if (just_before) just_before();
    if (const std::string problem = relauncher.relaunch(); !problem.empty()) return give_up(problem, pass > 0);
    auto stop = LABBOOK_PARAMS(CUpti_RangeProfiler_Stop_Params);
    stop.pRangeProfilerObject = c.object;
    c.running = false;
    CUptiResult stopped = CUPTI_SUCCESS;
    {
      const ScopeSeconds timed(pass_control_seconds_);
      stopped = cuptiRangeProfilerStop(&stop);
    }
    if (stopped != CUPTI_SUCCESS) return give_up(describe_call("cuptiRangeProfilerStop", stopped), true);
    if (stop.isAllPassSubmitted) return give_up("CUPTI took fewer passes than it had said", true);
  }
  if (const std::string problem = c.checkpoint->restore(); !problem.empty()) return give_up(problem, true);
  return true;
}

void RangeProfiler::evaluate_batch(Context& c) {
  const auto started = std::chrono::steady_clock::now();
  // A failed step loses this batch's metrics (said as an issue), never the run.
  auto lost = [&](const char* call, CUptiResult s) {
    issues_.add("metrics_lost", describe_call(call, s));
    c.pending.clear();
    if (carried_) std::remove(carried_data_path(c).c_str());   // the next run must not read the pass before
  };
  struct Accounting {   // runs on every return path
    RangeProfiler& p;
    Context& c;
    std::chrono::steady_clock::time_point started;
    ~Accounting() {
      c.running = false;
      p.evaluation_seconds_ += seconds_since(started);
    }
  } accounting{*this, c, started};
  auto stop = LABBOOK_PARAMS(CUpti_RangeProfiler_Stop_Params);
  stop.pRangeProfilerObject = c.object;
  if (CUptiResult s = cuptiRangeProfilerStop(&stop); s != CUPTI_SUCCESS) {
    return lost("cuptiRangeProfilerStop", s);
  }
  auto decode = LABBOOK_PARAMS(CUpti_RangeProfiler_DecodeData_Params);
  decode.pRangeProfilerObject = c.object;
  if (CUptiResult s = cuptiRangeProfilerDecodeData(&decode); s != CUPTI_SUCCESS) {
    return lost("cuptiRangeProfilerDecodeData", s);
  }
  if (carried_) {
    // Stop says which pass comes next: after this run's pass p, p + 1, or all submitted after
    // the last. Anything else means that CUPTI collected another pass than this run's.
    const bool as_planned = run_.last() ? stop.isAllPassSubmitted != 0
                                        : !stop.isAllPassSubmitted && stop.passIndex == static_cast<std::size_t>(run_.pass) + 1;
    if (!as_planned) {
      issues_.add("metrics_lost", join(metrics_, ", ") + ": CUPTI collected another pass than pass " +
                                      std::to_string(run_.pass + 1) + " of " + std::to_string(run_.passes) +
                                      " in this run, so its launches have no value for them");
      std::remove(carried_data_path(c).c_str());   // the next run must not read it
      c.pending.clear();
      return;
    }
  }
  if (carried_ && run_.pass > 0) {
    std::vector<std::string> kernels;
    for (const auto& l : c.pending) kernels.push_back(l.kernel);
    if (kernels != c.carried_kernels) {   // CUPTI would add one kernel's passes to another's
      issues_.add("launch_mismatch", join(metrics_, ", ") + ": batch " + std::to_string(c.batch + 1) +
                                         " launched other kernels than in the run before; its values are left out");
      c.pending.clear();
      return;
    }
  }
  if (carried_ && !run_.last()) {   // the next run collects the next pass into this image
    save_carried_data(c);
    c.pending.clear();
    return;
  }
  if (!replay_.application && !stop.isAllPassSubmitted)
    issues_.add("metrics_lost", "CUPTI expected more than the " + std::to_string(passes_) + " passes it had said for " +
                                    join(metrics_, ", ") + "; their values may be partial");
  if (decode.numOfRangeDropped > 0)
    issues_.add("ranges_dropped", std::to_string(decode.numOfRangeDropped) +
                                      " kernel ranges did not fit the counter data image");

  auto info = LABBOOK_PARAMS(CUpti_RangeProfiler_GetCounterDataInfo_Params);
  info.pCounterDataImage = c.counter_data.data();
  info.counterDataImageSize = c.counter_data.size();
  if (CUptiResult s = cuptiRangeProfilerGetCounterDataInfo(&info); s != CUPTI_SUCCESS) {
    return lost("cuptiRangeProfilerGetCounterDataInfo", s);
  }
  // Later batches that did not fill their image came back from the last run with their
  // ranges twice, the last pass's added after the first's (probe, docs/metrics.md): should a
  // first batch ever, its values would be another launch's.
  if (carried_ && info.numTotalRanges != c.pending.size()) {
    issues_.add("metrics_lost", join(metrics_, ", ") + ": CUPTI's last pass gave " + std::to_string(info.numTotalRanges) +
                                    " ranges to " + std::to_string(c.pending.size()) +
                                    " launches, so they have no value for them");
    c.pending.clear();
    return;
  }
  // Auto ranges are numbered in launch order; a mismatch means a launch labbook did not
  // see, and the mapping would be wrong, so say so.
  if (info.numTotalRanges != c.pending.size())
    issues_.add("launch_mismatch", "CUPTI profiled " + std::to_string(info.numTotalRanges) +
                                       " kernels where labbook saw " + std::to_string(c.pending.size()) +
                                       " launches; metrics are matched in launch order");

  std::vector<double> values(metric_ptrs_.size());
  for (std::size_t r = 0; r < info.numTotalRanges && r < c.pending.size(); ++r) {
    auto eval = LABBOOK_PARAMS(CUpti_Profiler_Host_EvaluateToGpuValues_Params);
    eval.pHostObject = host_->host;
    eval.pCounterDataImage = c.counter_data.data();
    eval.counterDataImageSize = c.counter_data.size();
    eval.rangeIndex = r;
    eval.ppMetricNames = metric_ptrs_.data();
    eval.numMetrics = metric_ptrs_.size();
    eval.pMetricValues = values.data();
    if (CUptiResult s = cuptiProfilerHostEvaluateToGpuValues(&eval); s != CUPTI_SUCCESS) {
      issues_.add("metrics_lost", describe_call("cuptiProfilerHostEvaluateToGpuValues", s));
      continue;
    }
    auto& out = results_[c.pending[r].index];
    for (std::size_t m = 0; m < metrics_.size(); ++m) {
      // A ratio over nothing (no requests of that kind) evaluates to NaN: no value, not a number.
      if (std::isfinite(values[m])) out[metrics_[m]] = values[m];
    }
  }
  c.pending.clear();
}

std::string RangeProfiler::carried_data_path(const Context& c) const {
  return carried_counters_prefix(replay_.plan_path) + c.name + "." + std::to_string(c.batch);
}

// A carried file: a line "labbook-counters N", the batch's N kernels a line each, then the
// counter data image as CUPTI left it.
bool RangeProfiler::load_carried_data(Context& c) {
  const std::string path = carried_data_path(c);
  std::ifstream in(path, std::ios::binary);
  std::string magic;
  std::size_t count = 0;
  in >> magic >> count;
  in.ignore(1);
  c.carried_kernels.clear();
  for (std::string kernel; in && c.carried_kernels.size() < count && std::getline(in, kernel);)
    c.carried_kernels.push_back(kernel);
  std::vector<std::uint8_t> data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  in.close();
  std::remove(path.c_str());   // read once: a later run must not take this pass for its own
  if (magic != "labbook-counters" || c.carried_kernels.size() != count || data.size() != c.counter_data.size()) {
    issues_.add("metrics_lost", "pass " + std::to_string(run_.pass + 1) + " of " + join(metrics_, ", ") +
                                    " found no counter data of the run before, so the launches have no value for them "
                                    "(a program that launches differently from run to run?)");
    return false;
  }
  c.counter_data = std::move(data);
  return true;
}

void RangeProfiler::save_carried_data(const Context& c) {
  const std::string path = carried_data_path(c);
  const std::string temporary = path + ".tmp";
  std::ofstream out(temporary, std::ios::binary);
  out << "labbook-counters " << c.pending.size() << "\n";
  for (const auto& l : c.pending) out << l.kernel << "\n";
  out.write(reinterpret_cast<const char*>(c.counter_data.data()), static_cast<std::streamsize>(c.counter_data.size()));
  out.close();
  if (out && std::rename(temporary.c_str(), path.c_str()) == 0) return;
  std::remove(temporary.c_str());
  issues_.add("metrics_lost", "could not keep the counter data of " + join(metrics_, ", ") + " for the next pass in " +
                                  path);
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
  std::vector<CUcontext> open;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const auto& [ctx, c] : contexts_) open.push_back(ctx);
  }
  for (CUcontext ctx : open) finish(ctx);
  std::lock_guard<std::mutex> lock(mutex_);
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

double RangeProfiler::setup_seconds() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return setup_seconds_;
}

double RangeProfiler::host_setup_seconds() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return host_setup_seconds_;
}

RangeProfiler::HostStages RangeProfiler::host_stages() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return host_stages_;
}

double RangeProfiler::checkpoint_seconds() const {
  std::lock_guard<std::mutex> lock(mutex_);
  double seconds = checkpoint_seconds_;
  for (const auto& [ctx, c] : contexts_)
    if (c->checkpoint) seconds += c->checkpoint->seconds();
  return seconds;
}

double RangeProfiler::pass_control_seconds() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return pass_control_seconds_;
}

double RangeProfiler::evaluation_seconds() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return evaluation_seconds_;
}

}  // namespace labbook::profiler
