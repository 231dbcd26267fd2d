#pragma once
/// @file
/// RangeProfiler: per-kernel metrics through CUPTI's Range Profiler (auto range: one range
/// per kernel) and the Profiler Host API (config image, evaluation). Two ways to get every
/// pass of the counters:
/// - kernel replay, inside one run, as ncu's kernel replay: the context's memory is saved
///   before a kernel's first pass (device_checkpoint.h) and put back before each later one,
///   L2 is flushed before every pass, and labbook launches the kernel again for each pass but
///   the last, which is the program's own launch (CUPTI's user replay). CUPTI's own kernel
///   replay restores memory through L2, so its later passes start warm: labbook does not use it;
/// - application replay: the program runs once per pass (pass_planner.h); this run collects
///   one pass, so nothing is replayed and hundreds of kernels share one counter-data image.
///   A group that needs several passes by itself (its counters share no pass) takes one run
///   per pass: CUPTI's application replay, with the pass index and the counter data carried
///   from run to run in files next to the plan, so that every pass starts as a run does.
/// Ranges come back in launch order and are matched to launch indices.
#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <cuda.h>
#include <cupti_result.h>

#include "issue_log.h"
#include "pass_plan.h"

namespace labbook::profiler {

struct ProfilerOverhead;

/// Which replay, and for application replay which pass of which plan.
struct ReplayOptions {
  bool application = false;
  int pass = 0;                ///< the run of the plan this is (PassPlan::run)
  std::string plan_path;       ///< where the first run writes the plan and later runs read it
  /// The most launches this run profiles, where a trace run told: application replay's
  /// counter data then holds that many ranges, not kSinglePassRanges (host memory), and, without
  /// stops, all metrics may be one group carried from run to run (Carrying::AllInOneBatch).
  std::optional<std::uint64_t> expected_launches;
  bool without_stops = false;                      ///< ... and they follow one another (CollectorRun)
  std::optional<std::uint64_t> ranges_per_image;   ///< fewer than labbook would choose (tests)
};

/// How kernel replay runs a kernel again: `load` loads its module (before its memory is
/// saved), `relaunch` launches it with the program's arguments; each returns "" or what failed.
struct KernelRelauncher {
  std::function<std::string()> load, relaunch;
};

class RangeProfiler {
 public:
  /// `metrics`: CUPTI metric names. Problems become issues in `issues`, never exceptions.
  RangeProfiler(std::vector<std::string> metrics, ReplayOptions replay, IssueLog& issues);
  ~RangeProfiler();
  RangeProfiler(const RangeProfiler&) = delete;
  RangeProfiler& operator=(const RangeProfiler&) = delete;

  /// Starts CUPTI's profiler (about 0.1 s) on a thread of its own, so that it overlaps the
  /// program's own start (its context, its memory); the first profiled launch waits for it.
  void initialize_soon();

  /// Call on the launching thread just before kernel `launch` starts on `ctx`, for a launch
  /// that gets metrics. Starts profiling `ctx` on its first such launch and evaluates a full
  /// batch before starting the next. `just_before` runs last, after any CUPTI work this call
  /// did (set-up, a new batch), so that it can leave the GPU as the kernel must find it (the
  /// L2 flush).
  /// `kernel` (its mangled name) lets a metric collected over several runs check that each
  /// run launched the same kernels. With kernel replay, `relauncher` launches the kernel again
  /// once for each pass but the last, `just_before` running before each pass.
  void before_launch(CUcontext ctx, std::uint64_t launch, const std::string& kernel,
                     const std::function<void()>& just_before = {}, const KernelRelauncher& relauncher = {});
  /// Call instead of before_launch() for a launch that gets no metrics: stops profiling
  /// `ctx` (evaluating what it holds) so that the launch is not counted as a range.
  void skip_launch(CUcontext ctx);

  /// Evaluates what `ctx` collected and stops profiling it (context about to be destroyed).
  void finish(CUcontext ctx);
  /// finish() for every context, then releases CUPTI's profiler.
  void finish_all();

  /// Metrics per launch index, for launches evaluated so far.
  std::map<std::uint64_t, std::map<std::string, double>> results() const;
  /// Passes the metric set needs: replays per kernel, or with application replay the
  /// program runs; 0 before the first launch.
  int passes() const;
  /// Where the profiler's time and memory went so far (LABBOOK_VERBOSE), into `costs`: its
  /// set-up, stage by stage; CUPTI's set-up of passes (counter data initialized, SetConfig,
  /// Start, kernel replay's Stop); evaluation; kernel replay's memory saves and restores; the
  /// ranges a counter-data image holds and the bytes of the images made.
  void add_costs(ProfilerOverhead& costs) const;

 private:
  /// Where the host set-up went: the chip's name and the context's counter availability;
  /// CUPTI's host object (the chip's tables, in a process's first); the metrics checked
  /// against the chip and application replay's pass plan; the config image made.
  struct HostStages {
    double availability = 0, host_object = 0, metrics_and_plan = 0, config_image = 0;
  };
  std::optional<std::uint64_t> ranges_per_image_asked() const;   // LABBOOK_RANGES_PER_IMAGE, if set
  struct Context;
  struct HostConfig;

  bool start(CUcontext ctx);                // false: metrics disabled (issue recorded)
  bool counter_data_size(const Context& c, std::size_t& bytes);   // for capacity_ ranges
  bool set_config(Context& c);              // counter data image (new or carried) + SetConfig
  bool start_pass(Context& c);              // Start
  bool replay_earlier_passes(Context& c, const std::string& kernel, const std::function<void()>& just_before,
                             const KernelRelauncher& relauncher);   // kernel replay
  void evaluate_batch(Context& c);          // Stop, Decode, evaluate into results_; c stops
  std::string carried_data_path(const Context& c) const;   // a batch's counter data between runs
  bool load_carried_data(Context& c);       // the previous run's counter data for this batch
  void save_carried_data(const Context& c); // for the next run
  bool prepare_host(CUcontext ctx, std::uint32_t device);  // chip, availability, config image
  bool read_availability(CUcontext ctx, CUdevice dev, std::vector<std::uint8_t>& image);   // kept, or CUPTI's
  void forget_kept_availability();          // where this run's image was a kept one
  CUptiResult take_early_initialization();  // waits for initialize_soon()'s thread
  void disable(const std::string& code, const std::string& message);

  bool plan_passes(const std::vector<std::uint8_t>& availability);   // application replay
  void use_metrics(std::vector<std::string> metrics);                // metrics_ and metric_ptrs_

  std::vector<std::string> metrics_;
  std::vector<const char*> metric_ptrs_;
  ReplayOptions replay_;
  IssueLog& issues_;
  std::size_t capacity_ = 1;     // ranges per counter-data image
  std::size_t counter_data_bytes_ = 0;
  bool user_replay_ = false;     // CUPTI_UserReplay with auto ranges: one pass, or labbook's kernel replay
  bool carried_ = false;         // one pass of several, a run each: CUPTI_ApplicationReplay
  RunPass run_;                  // with application replay: the pass this run collects
  int planned_runs_ = 0;
  mutable std::mutex mutex_;
  bool profiler_initialized_ = false;
  std::thread initializing_;            // initialize_soon()'s, joined before any other profiler call
  pid_t initializing_pid_ = 0;          // the process that started it
  std::mutex initializing_mutex_;       // one waits for it at a time
  CUptiResult initialized_early_ = CUPTI_ERROR_NOT_INITIALIZED;   // what its cuptiProfilerInitialize said
  std::string availability_kept_at_;   // the kept image's file, where this run took one
  bool disabled_ = false;
  HostStages host_stages_;
  std::unique_ptr<HostConfig> host_;
  std::map<CUcontext, std::unique_ptr<Context>> contexts_;
  std::map<std::uint32_t, int> contexts_on_device_;   // contexts profiled so far, by device
  std::map<std::uint64_t, std::map<std::string, double>> results_;
  int passes_ = 0;
  double evaluation_seconds_ = 0;
  double checkpoint_seconds_ = 0;   // of contexts already finished
  double pass_control_seconds_ = 0;
  double setup_seconds_ = 0;        // CUPTI's profiler, the host config, the pass plan
  double host_setup_seconds_ = 0;   // of it, the host config and pass plan (HostStages)
};

}  // namespace labbook::profiler
