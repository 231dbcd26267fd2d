// What the collector does at a launch (numbered, serialized and profiled when metrics are
// asked for), around a stream capture, and at a runtime call (whose correlation id the
// trace's records carry).
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "collector_state.h"
#include "graph_kernels.h"
#include "kernel_relaunch.h"
#include "profiled_launch.h"

namespace labbook::profiler {

namespace {

thread_local std::uint32_t t_runtime_correlation = 0;   // runtime API call in flight
thread_local std::uint32_t t_recorded_call = 0;          // the launch call labbook records, in flight
thread_local std::uint64_t t_recorded_call_began_ns = 0;  // ... when it began
thread_local std::uint64_t t_launch_entered_ns = 0;       // driver launch call in flight
thread_local bool t_launch_serialized = false;            // this thread holds the launch lock

/// Which default stream, if any, a launch's stream handle names.
DefaultStream default_stream_of(CUstream stream) {
  if (stream == nullptr || stream == CU_STREAM_LEGACY) return DefaultStream::Legacy;
  if (stream == CU_STREAM_PER_THREAD) return DefaultStream::PerThread;
  return DefaultStream::None;
}

}  // namespace

// Remembers the runtime call in flight (its correlation id is what kernel and copy
// records carry) and, for a call that may make copies, the NVTX range it was made in. A
// call that launches a kernel is recorded here, where CUPTI's record of it was turned off.
void Collector::on_runtime(CUpti_CallbackId cbid, const CUpti_CallbackData* d) {
  if (d->callbackSite == CUPTI_API_ENTER) {
    t_runtime_correlation = d->correlationId;
    if (tracer_ && tracer_->records_launch_call(cbid)) {
      t_recorded_call = d->correlationId;
      t_recorded_call_began_ns = now_ns();
    } else if (tracer_ && may_make_copies(d->functionName)) {
      if (const std::size_t range = nvtx_.current_range(this_thread_id()))
        book_.note_copy_range(d->correlationId, range);
    }
  } else {
    // Only a call whose beginning was seen: the first may have begun before the collector did.
    if (t_recorded_call != 0 && t_recorded_call == d->correlationId)
      tracer_->add_api_call({cbid, this_thread_id(), d->correlationId, t_recorded_call_began_ns, now_ns()});
    t_recorded_call = 0;
    t_runtime_correlation = 0;
  }
}

// Profiling stops (the batch so far is evaluated; the next launch starts a new one) before
// the driver runs GPU work of its own, so that work is not counted as the program's next
// kernel; and before a stream capture begins (on_capture): the range profiler must not see
// the captured launches (an auto range opened for one corrupted the graph's later launches
// on the H100), and stopping during a capture would synchronize, which a capture forbids.
void Collector::stop_profiling_before(const CUpti_CallbackData* d) {
  if (d->callbackSite != CUPTI_API_ENTER || !profiler_) return;
  std::lock_guard<std::recursive_mutex> serialized(launch_serializer_);   // not between a launch's enter and exit
  profiler_->skip_launch(d->context);
}

// Captures are followed from just before the driver begins one (profiling stopped, and the
// capture counted, with the launch lock held: no profiled launch is in flight then, and none
// starts after) to their end, whatever the driver answered; a capture the driver refused to
// begin is forgotten. While one is open, no launch is profiled (on_launch).
void Collector::on_capture(const DriverCallback& call, const CUpti_CallbackData* d) {
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
void Collector::on_launch(const DriverCallback& call, const CUpti_CallbackData* d) {
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
    kernels.push_back(kernel_name(d->symbolName));
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
bool Collector::replay_graph_nodes(const CUpti_CallbackData* d, CUstream stream) {
  if (!profiler_ || d->callbackSite != CUPTI_API_ENTER) return false;
  if (!graphs_.launch_nodes(static_cast<const cuGraphLaunch_params*>(d->functionParams)->hGraph, stream)) return false;
  begin_serialized_launch();   // ended at the graph launch's exit
  profiler_->skip_launch(d->context);
  return true;
}

// The interned name of `symbol`: a thread's launches mostly repeat its last kernel, which is
// then found without building a string from it and looking that up.
const std::string* Collector::kernel_name(const char* symbol) {
  thread_local const std::string* last = nullptr;
  if (!symbol) symbol = "";
  if (last && *last == symbol) return last;
  return last = names_.intern(symbol);
}

// From a launch's entry to its exit: one launch at a time, and timed.
void Collector::begin_serialized_launch() {
  launch_serializer_.lock();
  t_launch_serialized = true;
  t_launch_entered_ns = now_ns();
}

void Collector::end_serialized_launch() {
  launch_ns_ += now_ns() - t_launch_entered_ns;
  t_launch_serialized = false;
  launch_serializer_.unlock();
}

}  // namespace labbook::profiler
