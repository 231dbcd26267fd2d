#pragma once
/// @file
/// ActivityTracer: CUPTI Activity API for the timeline (kernels, copies, memsets, runtime
/// API calls). Owns the buffers; converted records accumulate until take().
#include <atomic>
#include <mutex>
#include <vector>

#include "activity_records.h"
#include "issue_log.h"

namespace labbook::profiler {

class ActivityTracer {
 public:
  /// Registers buffer callbacks and enables the activity kinds. Problems become issues;
  /// kernel names are interned in `names`. There is one tracer per process (CUPTI's buffer
  /// callbacks are global).
  ActivityTracer(IssueLog& issues, InternedNames& names);

  /// Adds unified-memory migrations and faults to the trace. CUPTI accepts this only after
  /// the driver is initialized, and it costs about 20 ms (CUPTI's UVM_ACTIVITY_INIT on the
  /// H100), so the collector calls it when the program first asks for managed memory.
  void enable_unified_memory();
  /// True for a runtime call that launches a kernel, whose record the collector makes from its
  /// own callbacks (add_api_call) while CUPTI's are off (launch_call_records.h).
  bool records_launch_call(CUpti_CallbackId runtime_cbid) const;
  /// A runtime call's record made by the collector, kept with CUPTI's.
  void add_api_call(const ApiCallRecord& call);
  /// CUPTI records the kernel-launching calls again: where the callbacks that would have made
  /// their records could not all be turned on.
  void leave_launch_calls_to_cupti();
  /// Forces every buffer, including incomplete ones, to be delivered now.
  void flush();
  /// Everything converted so far; the tracer keeps nothing.
  ActivityBatch take();

 private:
  static void CUPTIAPI buffer_requested(std::uint8_t** buffer, std::size_t* size, std::size_t* max_records);
  static void CUPTIAPI buffer_completed(CUcontext ctx, std::uint32_t stream, std::uint8_t* buffer,
                                        std::size_t size, std::size_t valid_size);

  IssueLog& issues_;
  InternedNames& names_;
  bool registered_ = false;   // CUPTI took the buffer callbacks
  std::atomic<bool> launch_calls_here_{false};   // CUPTI's records of kernel-launching runtime calls turned off
  std::once_flag unified_memory_once_;
  std::mutex mutex_;
  ActivityBatch batch_;
  // The collector's own records, apart: a launch must not wait while a buffer is appended.
  std::mutex launch_calls_mutex_;
  std::vector<ApiCallRecord> launch_calls_;
};

}  // namespace labbook::profiler
