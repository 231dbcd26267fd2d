#include "activity_records.h"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>

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

}  // namespace

std::string demangle(const char* mangled) {
  if (!mangled) return {};
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> out(abi::__cxa_demangle(mangled, nullptr, nullptr, &status),
                                             std::free);
  return status == 0 && out ? std::string(out.get()) : std::string(mangled);
}

void convert_record(const CUpti_Activity& record, ActivityBatch& batch) {
  switch (record.kind) {
    case CUPTI_ACTIVITY_KIND_KERNEL:
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: {
      const auto& r = reinterpret_cast<const CUpti_ActivityKernel10&>(record);
      Kernel k;
      k.mangled = r.name ? r.name : "";
      k.name = demangle(r.name);
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
      batch.kernels.push_back(std::move(k));
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
      const char* name = nullptr;
      cuptiGetCallbackName(CUPTI_CB_DOMAIN_RUNTIME_API, r.cbid, &name);
      batch.api_calls.push_back({name ? name : "cbid " + std::to_string(r.cbid), r.threadId,
                                 r.correlationId, r.start, r.end});
      break;
    }
    default: ++batch.other_records; break;
  }
}

}  // namespace labbook::profiler
