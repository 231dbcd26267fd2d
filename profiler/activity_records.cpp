#include "activity_records.h"

#include <algorithm>
#include <unordered_map>

#include <cupti_callbacks.h>

namespace labbook::profiler {

namespace {

CopyKind copy_kind(std::uint8_t k) {
  switch (k) {
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD:
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOA: return CopyKind::HostToDevice;
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH:
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOH: return CopyKind::DeviceToHost;
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOD:
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOA:
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOD:
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOA: return CopyKind::DeviceToDevice;
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOH: return CopyKind::HostToHost;
    case CUPTI_ACTIVITY_MEMCPY_KIND_PTOP: return CopyKind::PeerToPeer;
    default: return CopyKind::Unknown;
  }
}

HostMemoryKind memory_kind(std::uint32_t k) {
  switch (k) {
    case CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE: return HostMemoryKind::Pageable;
    case CUPTI_ACTIVITY_MEMORY_KIND_PINNED: return HostMemoryKind::Pinned;
    case CUPTI_ACTIVITY_MEMORY_KIND_DEVICE:
    case CUPTI_ACTIVITY_MEMORY_KIND_DEVICE_STATIC: return HostMemoryKind::Device;
    case CUPTI_ACTIVITY_MEMORY_KIND_MANAGED:
    case CUPTI_ACTIVITY_MEMORY_KIND_MANAGED_STATIC: return HostMemoryKind::Managed;
    case CUPTI_ACTIVITY_MEMORY_KIND_ARRAY: return HostMemoryKind::Array;
    default: return HostMemoryKind::Unknown;
  }
}

struct UnifiedMemoryKindName {
  CUpti_ActivityUnifiedMemoryCounterKind kind;
  const char* name;
  bool has_end;   // CUPTI leaves `end` invalid for the others
};
constexpr UnifiedMemoryKindName kUnifiedMemoryKinds[] = {
    {CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_HTOD, "htod", true},
    {CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_DTOH, "dtoh", true},
    {CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_DTOD, "dtod", true},
    {CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_GPU_PAGE_FAULT, "gpu_page_fault", true},
    {CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_CPU_PAGE_FAULT_COUNT, "cpu_page_fault", false},
    {CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_THRASHING, "thrashing", false},
    {CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_THROTTLING, "throttling", true},
    {CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_REMOTE_MAP, "remote_map", false},
};

/// "cudaMemcpy" for CUPTI's "cudaMemcpy_v3020": the name the program called, as nvprof showed it.
std::string api_name(const char* cupti_name) {
  std::string name = cupti_name;
  const auto v = name.rfind("_v");
  if (v != std::string::npos && v + 2 < name.size() &&
      name.find_first_not_of("0123456789", v + 2) == std::string::npos)
    name.resize(v);
  return name;
}

}  // namespace

std::vector<CUpti_ActivityUnifiedMemoryCounterKind> unified_memory_counter_kinds() {
  std::vector<CUpti_ActivityUnifiedMemoryCounterKind> out;
  for (const auto& k : kUnifiedMemoryKinds) out.push_back(k.kind);
  return out;
}

void convert_record(const CUpti_Activity& record, ActivityBatch& batch, InternedNames& names) {
  switch (record.kind) {
    case CUPTI_ACTIVITY_KIND_KERNEL:
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: {
      const auto& r = reinterpret_cast<const CUpti_ActivityKernel10&>(record);
      KernelRecord k;
      k.mangled = names.intern(r.name ? r.name : "");
      k.device = static_cast<int>(r.deviceId);
      k.stream = r.streamId;
      k.correlation = r.correlationId;
      k.grid[0] = r.gridX, k.grid[1] = r.gridY, k.grid[2] = r.gridZ;
      k.block[0] = r.blockX, k.block[1] = r.blockY, k.block[2] = r.blockZ;
      k.registers_per_thread = r.registersPerThread;
      k.static_shared_bytes = r.staticSharedMemory;
      k.dynamic_shared_bytes = r.dynamicSharedMemory;
      k.local_bytes_per_thread = static_cast<int>(r.localMemoryPerThread);
      k.start_ns = r.start;
      k.end_ns = r.end;
      batch.kernels.push_back(k);
      break;
    }
    case CUPTI_ACTIVITY_KIND_MEMCPY: {
      const auto& r = reinterpret_cast<const CUpti_ActivityMemcpy6&>(record);
      Copy c;
      c.kind = copy_kind(r.copyKind);
      c.src = memory_kind(r.srcKind);
      c.dst = memory_kind(r.dstKind);
      c.bytes = r.bytes;
      c.start_ns = r.start;
      c.end_ns = r.end;
      c.device = static_cast<int>(r.deviceId);
      c.stream = r.streamId;
      c.correlation = r.runtimeCorrelationId ? r.runtimeCorrelationId : r.correlationId;
      batch.copies.push_back(c);
      break;
    }
    case CUPTI_ACTIVITY_KIND_MEMSET: {
      const auto& r = reinterpret_cast<const CUpti_ActivityMemset4&>(record);
      Copy c;
      c.is_memset = true;
      c.dst = memory_kind(r.memoryKind);
      c.bytes = r.bytes;
      c.start_ns = r.start;
      c.end_ns = r.end;
      c.device = static_cast<int>(r.deviceId);
      c.stream = r.streamId;
      c.correlation = r.correlationId;
      batch.copies.push_back(c);
      break;
    }
    case CUPTI_ACTIVITY_KIND_RUNTIME: {
      const auto& r = reinterpret_cast<const CUpti_ActivityAPI&>(record);
      batch.api_calls.push_back({r.cbid, r.threadId, r.correlationId, r.start, r.end});
      break;
    }
    case CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER: {
      const auto& r = reinterpret_cast<const CUpti_ActivityUnifiedMemoryCounter3&>(record);
      for (const auto& k : kUnifiedMemoryKinds) {
        if (k.kind != r.counterKind) continue;
        UnifiedMemoryEvent e;
        e.kind = k.name;
        e.value = r.value;
        e.address = r.address;
        e.start_ns = r.start;
        e.end_ns = k.has_end && r.end >= r.start ? r.end : r.start;
        // Migrations name the GPU at either end; faults and throttling the GPU involved.
        const std::uint32_t gpu = r.counterKind == CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_DTOH ? r.srcId
                                  : r.counterKind == CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_HTOD ? r.dstId
                                                                                                                    : r.srcId;
        e.device = gpu == CUPTI_UNIFIED_MEMORY_CPU_DEVICE_ID ? -1 : static_cast<int>(gpu);
        batch.memory_events.push_back(e);
      }
      break;
    }
    default: ++batch.other_records; break;
  }
}

NamedApiCalls::NamedApiCalls(std::vector<ApiCallRecord> records) : records_(std::move(records)) {
  // In the order the calls began: the collector's own records of launch calls come apart from
  // CUPTI's buffers.
  const auto by_start = [](const ApiCallRecord& a, const ApiCallRecord& b) { return a.start_ns < b.start_ns; };
  if (!std::is_sorted(records_.begin(), records_.end(), by_start))
    std::stable_sort(records_.begin(), records_.end(), by_start);
  for (const ApiCallRecord& r : records_) {
    auto [name, fresh] = names_.try_emplace(r.cbid);
    if (!fresh) continue;
    const char* cupti_name = nullptr;
    cuptiGetCallbackName(CUPTI_CB_DOMAIN_RUNTIME_API, r.cbid, &cupti_name);
    name->second = cupti_name ? api_name(cupti_name) : "cbid " + std::to_string(r.cbid);
  }
}

void NamedApiCalls::make(std::size_t i, ApiCall& into) const {
  const ApiCallRecord& r = records_[i];
  into.name.assign(names_.at(r.cbid));
  into.thread = r.thread;
  into.correlation = r.correlation;
  into.start_ns = r.start_ns;
  into.end_ns = r.end_ns;
}

MadeRows<ApiCall> NamedApiCalls::rows() const {
  return {records_.size(), [this](std::size_t i, ApiCall& into) { make(i, into); },
          earliest_record_time_ns(records_)};
}

}  // namespace labbook::profiler
