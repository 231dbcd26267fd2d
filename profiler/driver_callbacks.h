#pragma once
/// @file
/// The driver API calls the collector subscribes to, each listed once with what the
/// collector does with it and how to read the stream it names. (The graph-exec calls that a
/// metrics run follows have their own list: graph_exec_calls.h.)
#include <vector>

#include <cuda.h>
#include <cupti.h>

namespace labbook::profiler {

/// What the collector does when a driver call of this kind is made.
enum class DriverCallRole {
  kLaunch,             ///< a kernel launch: timed, filtered, profiled
  kGraphLaunch,        ///< a graph launch: its kernels are the graph's
  kGraphInstantiate,   ///< remembers the graph an executable graph was made from
  kBeginCapture,       ///< a stream capture opens: its launches run nothing
  kEndCapture,
  kDriverGpuWork,      ///< the driver's own GPU work, which the range profiler must not count
  kManagedMemory,      ///< managed memory comes to exist: unified-memory tracing starts then (trace
                       ///< runs), so that programs without managed memory do not pay for it
};

struct DriverCallback {
  CUpti_CallbackId id;
  DriverCallRole role;
  /// The stream the call's parameters name (a _ptsz call's stream 0 is the thread's own), for
  /// launches and captures; null for the others and for calls without a stream.
  CUstream (*stream)(const void* params);
};

/// The stream a per-thread-stream (_ptsz) call names: its stream 0 is the thread's own stream.
inline CUstream per_thread_stream(CUstream named) { return named ? named : CU_STREAM_PER_THREAD; }

/// Every driver callback the collector enables, each once.
const std::vector<DriverCallback>& driver_callbacks();

/// The entry of `id` in driver_callbacks(), or null.
const DriverCallback* find_driver_callback(CUpti_CallbackId id);

}  // namespace labbook::profiler
