#include "activity_tracer.h"

#include <cstdlib>

#include "cupti_status.h"
#include "launch_call_records.h"

namespace labbook::profiler {

namespace {
constexpr std::size_t kBufferBytes = 4u << 20;
ActivityTracer* g_tracer = nullptr;   // CUPTI's buffer callbacks carry no user data
}  // namespace

ActivityTracer::ActivityTracer(IssueLog& issues, InternedNames& names) : issues_(issues), names_(names) {
  g_tracer = this;
  // System thread ids, so API records share thread ids with NVTX ranges.
  if (CUptiResult s = cuptiSetThreadIdType(CUPTI_ACTIVITY_THREAD_ID_TYPE_SYSTEM); s != CUPTI_SUCCESS)
    issues_.add("thread_ids_unmatched", describe_call("cuptiSetThreadIdType", s) +
                                            ": the timeline's API calls may sit on other threads than their NVTX ranges");
  if (CUptiResult s = cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed); s != CUPTI_SUCCESS) {
    issues_.add("trace_unavailable", describe_call("cuptiActivityRegisterCallbacks", s));
    return;
  }
  registered_ = true;
  // CONCURRENT_KERNEL, not KERNEL: the latter serializes kernels.
  for (CUpti_ActivityKind kind : {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY,
                                  CUPTI_ACTIVITY_KIND_MEMSET, CUPTI_ACTIVITY_KIND_RUNTIME}) {
    if (CUptiResult s = cuptiActivityEnable(kind); s != CUPTI_SUCCESS)
      issues_.add("trace_unavailable", describe_call("cuptiActivityEnable", s) + " (kind " +
                                           std::to_string(static_cast<int>(kind)) + ")");
  }
  launch_calls_here_ = take_launch_call_records();   // after the kind, which turns them on
}

void ActivityTracer::leave_launch_calls_to_cupti() {
  launch_calls_here_ = false;
  leave_launch_call_records();
}

bool ActivityTracer::records_launch_call(CUpti_CallbackId runtime_cbid) const {
  return launch_calls_here_ && launches_a_kernel(runtime_cbid);
}

void ActivityTracer::add_api_call(const ApiCallRecord& call) {
  std::lock_guard<std::mutex> lock(launch_calls_mutex_);
  launch_calls_.push_back(call);
}

void CUPTIAPI ActivityTracer::buffer_requested(std::uint8_t** buffer, std::size_t* size,
                                               std::size_t* max_records) {
  *buffer = static_cast<std::uint8_t*>(std::aligned_alloc(8, kBufferBytes));
  *size = *buffer ? kBufferBytes : 0;
  *max_records = 0;
}

void CUPTIAPI ActivityTracer::buffer_completed(CUcontext, std::uint32_t, std::uint8_t* buffer,
                                               std::size_t, std::size_t valid_size) {
  ActivityBatch local;   // g_tracer is set before CUPTI can call this
  CUpti_Activity* record = nullptr;
  while (cuptiActivityGetNextRecord(buffer, valid_size, &record) == CUPTI_SUCCESS)
    convert_record(*record, local, g_tracer->names_);
  std::free(buffer);
  std::size_t dropped = 0;
  cuptiActivityGetNumDroppedRecords(nullptr, 0, &dropped);
  if (dropped) g_tracer->issues_.add("records_dropped", std::to_string(dropped) + " activity records were dropped");
  std::lock_guard<std::mutex> lock(g_tracer->mutex_);
  auto& b = g_tracer->batch_;
  const auto append = [](auto& to, const auto& from) { to.insert(to.end(), from.begin(), from.end()); };
  append(b.kernels, local.kernels);
  append(b.copies, local.copies);
  append(b.api_calls, local.api_calls);
  append(b.memory_events, local.memory_events);
  b.other_records += local.other_records;
}

void ActivityTracer::enable_unified_memory() {
  std::call_once(unified_memory_once_, [this] {
    std::vector<CUpti_ActivityUnifiedMemoryCounterConfig> config;
    for (auto kind : unified_memory_counter_kinds())
      config.push_back({CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_SCOPE_PROCESS_ALL_DEVICES, kind, 0, 1});
    CUptiResult s = cuptiActivityConfigureUnifiedMemoryCounter(config.data(), static_cast<std::uint32_t>(config.size()));
    if (s == CUPTI_SUCCESS) s = cuptiActivityEnable(CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER);
    if (s != CUPTI_SUCCESS)
      issues_.add("unified_memory_untraced", "unified-memory migrations and faults are not in the timeline: " +
                                                 describe_call("cuptiActivityConfigureUnifiedMemoryCounter", s));
  });
}

void ActivityTracer::flush() {
  if (!registered_) return;   // trace_unavailable says why
  if (CUptiResult s = cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED); s != CUPTI_SUCCESS)
    issues_.add("records_dropped", describe_call("cuptiActivityFlushAll", s) +
                                       ": the timeline may lack the program's last kernels, copies and calls");
}

ActivityBatch ActivityTracer::take() {
  std::lock_guard<std::mutex> lock(mutex_);
  ActivityBatch out = std::move(batch_);
  batch_ = {};
  std::lock_guard<std::mutex> launch_calls_lock(launch_calls_mutex_);
  out.api_calls.insert(out.api_calls.end(), launch_calls_.begin(), launch_calls_.end());
  launch_calls_.clear();
  return out;
}

}  // namespace labbook::profiler
