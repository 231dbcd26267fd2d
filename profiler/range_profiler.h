#pragma once
/// @file
/// RangeProfiler: per-kernel metrics through CUPTI's Range Profiler (auto range, kernel
/// replay) and the Profiler Host API (config image, evaluation). Each context has one
/// counter-data image, evaluated and reset after every kernel (see kBatchRanges); ranges come
/// back in launch order and are matched to launch indices.
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <cuda.h>

#include "issue_log.h"

namespace labbook::profiler {

class RangeProfiler {
 public:
  /// `metrics`: CUPTI metric names. Problems become issues in `issues`, never exceptions.
  RangeProfiler(std::vector<std::string> metrics, IssueLog& issues);
  ~RangeProfiler();
  RangeProfiler(const RangeProfiler&) = delete;
  RangeProfiler& operator=(const RangeProfiler&) = delete;

  /// Call on the launching thread just before kernel `launch` starts on `ctx`, for a launch
  /// that gets metrics. Starts profiling `ctx` on its first such launch and evaluates a
  /// full batch before starting the next.
  void before_launch(CUcontext ctx, std::uint64_t launch);
  /// Call instead of before_launch() for a launch that gets no metrics: stops profiling
  /// `ctx` (evaluating what it holds) so that the launch is not counted as a range.
  void skip_launch(CUcontext ctx);

  /// Evaluates what `ctx` collected and stops profiling it (context about to be destroyed).
  void finish(CUcontext ctx);
  /// finish() for every context, then releases CUPTI's profiler.
  void finish_all();

  /// Metrics per launch index, for launches evaluated so far.
  std::map<std::uint64_t, std::map<std::string, double>> results() const;
  /// Replay passes per kernel for the metric set; 0 before the first launch.
  int passes() const;
  /// Seconds spent stopping, decoding and evaluating counter data so far.
  double evaluation_seconds() const;

 private:
  struct Context;
  struct HostConfig;

  bool start(CUcontext ctx);                // false: metrics disabled (issue recorded)
  bool configure(Context& c);               // counter data image + SetConfig + Start
  void evaluate_batch(Context& c);          // Stop, Decode, evaluate into results_; c stops
  bool prepare_host(CUcontext ctx, std::uint32_t device);  // chip, availability, config image
  void disable(const std::string& code, const std::string& message);

  std::vector<std::string> metrics_;
  std::vector<const char*> metric_ptrs_;
  IssueLog& issues_;
  mutable std::mutex mutex_;
  bool profiler_initialized_ = false;
  bool disabled_ = false;
  std::unique_ptr<HostConfig> host_;
  std::map<CUcontext, std::unique_ptr<Context>> contexts_;
  std::map<std::uint64_t, std::map<std::string, double>> results_;
  int passes_ = 0;
  double evaluation_seconds_ = 0;
};

}  // namespace labbook::profiler
