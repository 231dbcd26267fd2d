#pragma once
/// @file
/// The Collector, for its two files alone: collector.cpp (its start, the callbacks' dispatch
/// and its finish) and collector_launches.cpp (what it does at a launch, a capture and a
/// runtime call).
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include <cupti.h>

#include "activity_tracer.h"
#include "collector.h"
#include "driver_callbacks.h"
#include "graph_follower.h"
#include "issue_log.h"
#include "l2_flusher.h"
#include "launch_book.h"
#include "nvtx_tracker.h"
#include "open_captures.h"
#include "process_facts.h"
#include "range_profiler.h"
#include "sass_source.h"

namespace labbook::profiler {

/// CUPTI's clock, which its records use.
inline std::uint64_t now_ns() {
  std::uint64_t t = 0;
  cuptiGetTimestamp(&t);
  return t;
}

class Collector {
 public:
  explicit Collector(CollectorConfig config)
      : config_(std::move(config)), started_at_(utc_now_iso8601()), started_ns_(now_ns()), book_(config_.filter) {}

  bool start();
  void finish(const std::string& stop_reason);

 private:
  // collector.cpp
  static void CUPTIAPI on_callback(void* self, CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void* data);
  void dispatch(CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void* data);
  void on_driver_call(CUpti_CallbackId cbid, const CUpti_CallbackData* d);
  void prepare_flusher(CUcontext context);
  void report_overhead(std::uint64_t started, std::uint64_t profiler_finished) const;
  // collector_launches.cpp
  void on_runtime(CUpti_CallbackId cbid, const CUpti_CallbackData* d);
  const std::string* kernel_name(const char* symbol);   // interned
  void stop_profiling_before(const CUpti_CallbackData* d);
  void on_capture(const DriverCallback& call, const CUpti_CallbackData* d);
  void on_launch(const DriverCallback& call, const CUpti_CallbackData* d);
  bool replay_graph_nodes(const CUpti_CallbackData* d, CUstream stream);
  void begin_serialized_launch();
  void end_serialized_launch();

  CollectorConfig config_;
  std::string started_at_;
  std::uint64_t started_ns_;
  std::recursive_mutex launch_serializer_;
  std::atomic<std::uint64_t> launch_ns_{0};
  CUpti_SubscriberHandle subscriber_ = nullptr;
  IssueLog issues_;
  NvtxTracker nvtx_;
  const RangePaths range_paths_ = [this](std::size_t range) { return nvtx_.path_of(range); };   // the filter's
  InternedNames names_;                   // kernel names, before those who point into it
  LaunchBook book_;
  std::unique_ptr<ActivityTracer> tracer_;
  std::unique_ptr<RangeProfiler> profiler_;
  std::unique_ptr<L2Flusher> flusher_;
  std::unique_ptr<SassSource> source_;
  struct {
    std::uint64_t flushed_ns = 0, built_ns = 0;
    double peak_before_mb = 0;   // where the peak is: during the run, or while finishing
  } finish_stages_;                        // for LABBOOK_VERBOSE
  OpenCaptures captures_;
  GraphFollower graphs_{issues_, !config_.metrics.empty()};
  std::atomic<bool> finished_{false};
  std::atomic<std::uint64_t> callback_ns_{0}, callbacks_{0};   // with LABBOOK_VERBOSE
};

}  // namespace labbook::profiler
