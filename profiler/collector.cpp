#include "collector.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <string_view>

#include <cupti.h>

#include "activity_tracer.h"
#include "callback_switches.h"
#include "collector_subscriptions.h"
#include "cupti_status.h"
#include "driver_callbacks.h"
#include "graph_exec_calls.h"
#include "graph_follower.h"
#include "graph_kernels.h"
#include "l2_flusher.h"
#include "issue_log.h"
#include "kernel_relaunch.h"
#include "launch_book.h"
#include "launch_join.h"
#include "labbook/model/error.h"
#include "labbook/model/measurement_json.h"
#include "measurement_assembly.h"
#include "nvtx_callbacks.h"
#include "nvtx_tracker.h"
#include "open_captures.h"
#include "overhead_report.h"
#include "process_facts.h"
#include "profiled_launch.h"
#include "range_profiler.h"
#include "sass_source.h"
#include "stopwatch.h"

namespace labbook::profiler {

namespace {

std::uint64_t now_ns() {
  std::uint64_t t = 0;
  cuptiGetTimestamp(&t);
  return t;
}

thread_local std::uint32_t t_runtime_correlation = 0;   // runtime API call in flight
thread_local std::uint64_t t_launch_entered_ns = 0;       // driver launch call in flight
thread_local bool t_launch_serialized = false;            // this thread holds the launch lock

/// Which default stream, if any, a launch's stream handle names.
DefaultStream default_stream_of(CUstream stream) {
  if (stream == nullptr || stream == CU_STREAM_LEGACY) return DefaultStream::Legacy;
  if (stream == CU_STREAM_PER_THREAD) return DefaultStream::PerThread;
  return DefaultStream::None;
}

double seconds(std::uint64_t ns) { return static_cast<double>(ns) * 1e-9; }

class Collector {
 public:
  explicit Collector(CollectorConfig config)
      : config_(std::move(config)), started_at_(utc_now_iso8601()), started_ns_(now_ns()), book_(config_.filter) {}

  bool start() {
    if (CUptiResult s = cuptiSubscribe(&subscriber_, &Collector::on_callback, this); s != CUPTI_SUCCESS) {
      std::fprintf(stderr, "labbook collector: %s\n", describe_call("cuptiSubscribe", s).c_str());
      return false;
    }
    const bool metrics = !config_.metrics.empty();
    if (!config_.source_metrics.empty())
      source_ = std::make_unique<SassSource>(config_.source_metrics, config_.source_kernel, issues_, config_.verbose);
    if (config_.trace) tracer_ = std::make_unique<ActivityTracer>(issues_, names_);
    if (metrics) {
      profiler_ = std::make_unique<RangeProfiler>(
          config_.metrics, ReplayOptions{config_.application_replay, config_.pass, config_.pass_plan, config_.expected_launches,
                                       config_.without_stops, config_.ranges_per_image}, issues_);
      if (config_.flush_l2) flusher_ = std::make_unique<L2Flusher>(config_.flush_passes);
    }
    CallbackSwitches on(subscriber_, issues_);   // after the parts its callbacks reach
    subscribe(on, {config_.trace, !config_.source_metrics.empty(), metrics && config_.flush_l2});
    return true;
  }

  void finish(const std::string& stop_reason) {
    if (finished_.exchange(true)) return;
    const std::uint64_t started = now_ns();
    if (config_.verbose) finish_stages_.peak_before_mb = peak_resident_mb();
    if (flusher_) flusher_->settle();
    if (profiler_) profiler_->finish_all();
    if (source_) source_->finish_all();
    const std::uint64_t profiler_finished = now_ns();
    if (tracer_) tracer_->flush();
    finish_stages_.flushed_ns = finish_stages_.built_ns = now_ns();   // built_ns again once built
    bool built = false;
    try {
      Measurement m = assemble_measurement(
          {config_, started_at_, book_.take(), nvtx_, profiler_.get(), source_.get(), tracer_.get(), issues_});
      m.program.stop_reason = stop_reason;
      finish_stages_.built_ns = now_ns();
      built = true;
      if (config_.output_fd >= 0)
        write_measurement_text(m, [this](std::string_view piece) { write_all(config_.output_fd, piece); });
      else write_measurement(m, config_.output);
    } catch (const Error& e) {
      if (!built) finish_stages_.built_ns = now_ns();   // the time went to building; nothing was written
      std::fprintf(stderr, "labbook collector: %s\n", e.what());
    }
    if (config_.verbose) report_overhead(started, profiler_finished);
  }

 private:
  static void CUPTIAPI on_callback(void* self, CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                                   const void* data) {
    auto* c = static_cast<Collector*>(self);
    if (c->finished_) return;
    if (!c->config_.verbose) return c->dispatch(domain, cbid, data);
    const auto entered = std::chrono::steady_clock::now();   // the trace run's cost per call
    c->dispatch(domain, cbid, data);
    c->callback_ns_ += static_cast<std::uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - entered).count());
    ++c->callbacks_;
  }

  void dispatch(CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void* data) {
    switch (domain) {
      case CUPTI_CB_DOMAIN_NVTX:
        record_nvtx_call(nvtx_, cbid, *static_cast<const CUpti_NvtxData*>(data), this_thread_id(), now_ns);
        break;
      case CUPTI_CB_DOMAIN_RUNTIME_API: on_runtime(static_cast<const CUpti_CallbackData*>(data)); break;
      case CUPTI_CB_DOMAIN_DRIVER_API: on_driver_call(cbid, static_cast<const CUpti_CallbackData*>(data)); break;
      case CUPTI_CB_DOMAIN_RESOURCE:
        if (cbid == CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING && profiler_)
          profiler_->finish(static_cast<const CUpti_ResourceData*>(data)->context);
        else if (cbid == CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING && source_)
          source_->finish(static_cast<const CUpti_ResourceData*>(data)->context);
        else if (cbid == CUPTI_CBID_RESOURCE_MODULE_LOADED && source_)
          source_->on_module_loaded(*static_cast<const CUpti_ModuleResourceData*>(
              static_cast<const CUpti_ResourceData*>(data)->resourceDescriptor));
        else if (cbid == CUPTI_CBID_RESOURCE_CONTEXT_CREATED && flusher_)
          prepare_flusher(static_cast<const CUpti_ResourceData*>(data)->context);
        break;
      default: break;
    }
  }

  void on_driver_call(CUpti_CallbackId cbid, const CUpti_CallbackData* d) {
    if (is_graph_exec_call(cbid)) return graphs_.on_exec_call(cbid, *d);
    const DriverCallback* call = find_driver_callback(cbid);
    if (!call) return;
    switch (call->role) {
      case DriverCallRole::kManagedMemory:
        if (tracer_ && d->callbackSite == CUPTI_API_ENTER) tracer_->enable_unified_memory();
        break;
      case DriverCallRole::kGraphInstantiate: graphs_.on_instantiate(*d); break;
      case DriverCallRole::kBeginCapture:
      case DriverCallRole::kEndCapture: on_capture(*call, d); break;
      case DriverCallRole::kDriverGpuWork: stop_profiling_before(d); break;
      case DriverCallRole::kLaunch:
      case DriverCallRole::kGraphLaunch: on_launch(*call, d); break;
    }
  }

  // Remembers the runtime call in flight (its correlation id is what kernel and copy
  // records carry) and, for a call that may make copies, the NVTX range it was made in.
  void on_runtime(const CUpti_CallbackData* d) {
    if (d->callbackSite == CUPTI_API_ENTER) {
      t_runtime_correlation = d->correlationId;
      if (tracer_ && may_make_copies(d->functionName)) {
        if (const std::size_t range = nvtx_.current_range(this_thread_id()))
          book_.note_copy_range(d->correlationId, range);
      }
    } else {
      t_runtime_correlation = 0;
    }
  }

  // The flusher's context, kernel and buffer (about 0.13 s on the H100) are made while the
  // program sets itself up, rather than at its first profiled kernel.
  void prepare_flusher(CUcontext context) {
    std::uint32_t device = 0;
    if (cuptiGetDeviceId(context, &device) == CUPTI_SUCCESS) flusher_->prepare_soon(static_cast<int>(device));
  }

  // Profiling stops (the batch so far is evaluated; the next launch starts a new one) before
  // the driver runs GPU work of its own, so that work is not counted as the program's next
  // kernel; and before a stream capture begins (on_capture): the range profiler must not see
  // the captured launches (an auto range opened for one corrupted the graph's later launches
  // on the H100), and stopping during a capture would synchronize, which a capture forbids.
  void stop_profiling_before(const CUpti_CallbackData* d) {
    if (d->callbackSite != CUPTI_API_ENTER || !profiler_) return;
    std::lock_guard<std::recursive_mutex> serialized(launch_serializer_);   // not between a launch's enter and exit
    profiler_->skip_launch(d->context);
  }

  // Captures are followed from just before the driver begins one (profiling stopped, and the
  // capture counted, with the launch lock held: no profiled launch is in flight then, and none
  // starts after) to their end, whatever the driver answered; a capture the driver refused to
  // begin is forgotten. While one is open, no launch is profiled (on_launch).
  void on_capture(const DriverCallback& call, const CUpti_CallbackData* d) {
    const CUstream stream = call.stream(d->functionParams);
    if (call.role == DriverCallRole::kBeginCapture && d->callbackSite == CUPTI_API_ENTER) {
      std::lock_guard<std::recursive_mutex> serialized(launch_serializer_);
      if (profiler_) profiler_->skip_launch(d->context);
      captures_.began(d->context, stream);
    } else if (d->callbackSite == CUPTI_API_EXIT &&
               (call.role == DriverCallRole::kEndCapture ||
                *static_cast<const CUresult*>(d->functionReturnValue) != CUDA_SUCCESS)) {
      captures_.ended(d->context, stream);
    }
  }

  // With metrics, launches are serialized from entry to exit (and timed): CUPTI numbers its
  // ranges in the order kernels reach the GPU, and labbook must number launches that way.
  // A launch into a stream being captured runs nothing now (its kernel runs as a graph
  // node later) and is not a launch; nor is the L2 flusher's own.
  void on_launch(const DriverCallback& call, const CUpti_CallbackData* d) {
    // The flusher's own launches, and kernel replay's, inside a program's.
    if (L2Flusher::in_flush() || relaunching()) return;
    if (d->callbackSite == CUPTI_API_EXIT) {
      if (t_launch_serialized) end_serialized_launch();
      return;
    }
    const bool graph = call.role == DriverCallRole::kGraphLaunch;
    const CUstream stream = call.stream ? call.stream(d->functionParams) : nullptr;
    // (Asking the driver costs a call per launch: only while some capture is open.)
    if (!graph && captures_.any() && stream_is_capturing(stream)) return;
    // A graph labbook took over launches its nodes itself, even beside a capture: the
    // program's own graph has them disabled. They come back here one by one.
    if (graph && replay_graph_nodes(d, stream)) return;
    // Another stream is being captured (by another thread, or by this one): CUPTI's profiler
    // cannot start now without breaking that capture (open_captures.h), so the launch runs
    // unprofiled, and the measurement says so. Asked with the launch lock held, so that no
    // capture begins between the answer and the launch (on_capture).
    bool beside_capture = false;
    if (profiler_ || source_) {
      begin_serialized_launch();
      beside_capture = captures_.any();
      if (beside_capture) end_serialized_launch();
    }
    std::uint32_t device = 0;
    cuptiGetDeviceId(d->context, &device);
    LaunchCall launch;
    launch.thread = this_thread_id();
    launch.range = nvtx_.current_range(launch.thread);
    launch.device = static_cast<int>(device);
    launch.runtime_correlation = t_runtime_correlation;
    launch.driver_correlation = d->correlationId;
    launch.default_stream = graph ? DefaultStream::None : default_stream_of(stream);
    launch.graph = graph;
    launch.choosing = profiler_ || source_;
    launch.beside_capture = beside_capture;
    std::vector<const std::string*> kernels;   // the one copy of each name, which records point to
    if (!graph) {
      kernels.push_back(names_.intern(d->symbolName ? d->symbolName : ""));
    } else {
      for (const std::string& k : graphs_.kernels(static_cast<const cuGraphLaunch_params*>(d->functionParams)->hGraph))
        kernels.push_back(names_.intern(k));
    }
    // For the source pass the launches are copied here, since finish() takes the book's.
    const RecordedLaunches recorded = book_.record(launch, kernels, range_paths_, source_ != nullptr);
    if (source_) {
      // One chosen kernel is counted per run, all its launches summed (sass_source.h).
      for (const auto& l : recorded.launches) source_->on_launch(d->context, l.index, *l.mangled, l.selected);
      return;
    }
    if (!profiler_ || beside_capture) return;
    if (graph) {
      // A graph labbook could not take over runs whole, with the profiler stopped: CUPTI 13.0
      // would give all its kernels one range (graph_replay.h).
      profiler_->skip_launch(d->context);
      if (recorded.count > 0)
        graphs_.ran_whole(static_cast<const cuGraphLaunch_params*>(d->functionParams)->hGraph);
      return;
    }
    if (!recorded.any_selected) {
      profiler_->skip_launch(d->context);
      return;
    }
    profile_launch(*profiler_, flusher_.get(), issues_, call.id, *d, static_cast<int>(device), recorded.first);
  }

  // A metrics run's launch of a graph labbook took over: its nodes are launched here, one by
  // one, and each kernel comes back through on_launch as a launch of its own; the graph launch
  // itself, all its nodes disabled, runs with the profiler stopped, so that it takes no range.
  // Returns false where the graph must run whole. Launches of one graph into two streams stay
  // ordered as the driver orders them: the range profiler synchronizes after every profiled
  // kernel, and skip_launch() evaluates (and synchronizes) at every graph launch.
  bool replay_graph_nodes(const CUpti_CallbackData* d, CUstream stream) {
    if (!profiler_ || d->callbackSite != CUPTI_API_ENTER) return false;
    if (!graphs_.launch_nodes(static_cast<const cuGraphLaunch_params*>(d->functionParams)->hGraph, stream)) return false;
    begin_serialized_launch();   // ended at the graph launch's exit
    profiler_->skip_launch(d->context);
    return true;
  }

  // From a launch's entry to its exit: one launch at a time, and timed.
  void begin_serialized_launch() {
    launch_serializer_.lock();
    t_launch_serialized = true;
    t_launch_entered_ns = now_ns();
  }

  void end_serialized_launch() {
    launch_ns_ += now_ns() - t_launch_entered_ns;
    t_launch_serialized = false;
    launch_serializer_.unlock();
  }

  // finish() began at `started`, and had evaluated the profiler's last batch and torn CUPTI's
  // profiler down at `profiler_finished` (the rest: trace records and the measurement).
  void report_overhead(std::uint64_t started, std::uint64_t profiler_finished) const {
    const std::uint64_t finish_ns = now_ns() - started, profiler_ns = profiler_finished - started;
    if (!profiler_) {
      TraceOverhead f;
      f.launches = book_.launches_seen();
      f.callback_seconds = seconds(callback_ns_.load());
      f.callbacks = callbacks_.load();
      f.finish_seconds = seconds(finish_ns);
      f.records_seconds = seconds(finish_stages_.flushed_ns - profiler_finished);
      f.build_seconds = seconds(finish_stages_.built_ns - finish_stages_.flushed_ns);
      f.write_seconds = seconds(now_ns() - finish_stages_.built_ns);
      f.since_start_seconds = seconds(now_ns() - started_ns_);
      f.peak_mb = peak_resident_mb();
      f.peak_before_finish_mb = finish_stages_.peak_before_mb;
      std::fputs(describe_overhead(f).c_str(), stderr);
      return;
    }
    ProfilerOverhead f;
    profiler_->add_costs(f);
    if (flusher_) flusher_->add_costs(f);
    f.launches = book_.launches_seen();
    f.launch_seconds = seconds(launch_ns_.load());
    f.finish_seconds = seconds(finish_ns);
    f.profiler_finish_seconds = seconds(profiler_ns);
    f.since_start_seconds = seconds(now_ns() - started_ns_);
    f.peak_mb = peak_resident_mb();
    std::fputs(describe_overhead(f).c_str(), stderr);
  }

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

Collector* g_collector = nullptr;

}  // namespace

bool start_collector(const CollectorConfig& config) {
  if (g_collector) return true;
  auto collector = std::make_unique<Collector>(config);
  if (!collector->start()) return false;
  g_collector = collector.release();   // lives until exit: CUPTI may call back until then
  return true;
}

void finish_collector(const std::string& stop_reason) {
  if (g_collector) g_collector->finish(stop_reason);
}

}  // namespace labbook::profiler
