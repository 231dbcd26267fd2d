#include "driver_callbacks.h"

#include <algorithm>

#include <cupti.h>   // and with it the driver calls' parameter structs (generated_cuda_meta.h)

namespace labbook::profiler {

namespace {
template <typename Params>
CUstream named_stream(const void* p) { return static_cast<const Params*>(p)->hStream; }
template <typename Params>
CUstream named_stream_ptsz(const void* p) { return per_thread_stream(static_cast<const Params*>(p)->hStream); }
template <typename Params>
CUstream config_stream(const void* p) { return static_cast<const Params*>(p)->config->hStream; }
template <typename Params>
CUstream config_stream_ptsz(const void* p) { return per_thread_stream(static_cast<const Params*>(p)->config->hStream); }

using Role = DriverCallRole;

std::vector<DriverCallback> make_driver_callbacks() {
  std::vector<DriverCallback> calls = {
      {CUPTI_DRIVER_TRACE_CBID_cuLaunch, Role::kLaunch, nullptr},
      {CUPTI_DRIVER_TRACE_CBID_cuLaunchGrid, Role::kLaunch, nullptr},
      {CUPTI_DRIVER_TRACE_CBID_cuLaunchGridAsync, Role::kLaunch, named_stream<cuLaunchGridAsync_params>},
      {CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, Role::kLaunch, named_stream<cuLaunchKernel_params>},
      {CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz, Role::kLaunch, named_stream_ptsz<cuLaunchKernel_ptsz_params>},
      {CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx, Role::kLaunch, config_stream<cuLaunchKernelEx_params>},
      {CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz, Role::kLaunch, config_stream_ptsz<cuLaunchKernelEx_ptsz_params>},
      {CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel, Role::kLaunch, named_stream<cuLaunchCooperativeKernel_params>},
      {CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz, Role::kLaunch,
       named_stream_ptsz<cuLaunchCooperativeKernel_ptsz_params>},
      {CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch, Role::kGraphLaunch, named_stream<cuGraphLaunch_params>},
      {CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz, Role::kGraphLaunch, named_stream_ptsz<cuGraphLaunch_ptsz_params>},
      {CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiate, Role::kGraphInstantiate, nullptr},
      {CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiate_v2, Role::kGraphInstantiate, nullptr},
      {CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiateWithFlags, Role::kGraphInstantiate, nullptr},
      {CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiateWithParams, Role::kGraphInstantiate, nullptr},
      {CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiateWithParams_ptsz, Role::kGraphInstantiate, nullptr},
      {CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture, Role::kBeginCapture, named_stream<cuStreamBeginCapture_params>},
      {CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_ptsz, Role::kBeginCapture,
       named_stream_ptsz<cuStreamBeginCapture_ptsz_params>},
      {CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2, Role::kBeginCapture, named_stream<cuStreamBeginCapture_v2_params>},
      {CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2_ptsz, Role::kBeginCapture,
       named_stream_ptsz<cuStreamBeginCapture_v2_ptsz_params>},
      {CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCaptureToGraph, Role::kBeginCapture,
       named_stream<cuStreamBeginCaptureToGraph_params>},
      {CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCaptureToGraph_ptsz, Role::kBeginCapture,
       named_stream_ptsz<cuStreamBeginCaptureToGraph_ptsz_params>},
      {CUPTI_DRIVER_TRACE_CBID_cuStreamEndCapture, Role::kEndCapture, named_stream<cuStreamEndCapture_params>},
      {CUPTI_DRIVER_TRACE_CBID_cuStreamEndCapture_ptsz, Role::kEndCapture, named_stream_ptsz<cuStreamEndCapture_ptsz_params>},
      {CUPTI_DRIVER_TRACE_CBID_cuCtxResetPersistingL2Cache, Role::kDriverGpuWork, nullptr},
      // cudaMallocManaged, the runtime's lookup of a __managed__ variable, and allocations from
      // a memory pool, which may be managed (CUDA 13). System memory the GPU reaches through
      // HMM or ATS calls none of these: its page faults are not traced.
      {CUPTI_DRIVER_TRACE_CBID_cuMemAllocManaged, Role::kManagedMemory, nullptr},
      {CUPTI_DRIVER_TRACE_CBID_cuLibraryGetManaged, Role::kManagedMemory, nullptr},
      {CUPTI_DRIVER_TRACE_CBID_cuMemAllocFromPoolAsync, Role::kManagedMemory, nullptr},
      {CUPTI_DRIVER_TRACE_CBID_cuMemAllocFromPoolAsync_ptsz, Role::kManagedMemory, nullptr},
  };
  std::sort(calls.begin(), calls.end(), [](const DriverCallback& a, const DriverCallback& b) { return a.id < b.id; });
  return calls;
}
}  // namespace

const std::vector<DriverCallback>& driver_callbacks() {
  static const std::vector<DriverCallback> calls = make_driver_callbacks();
  return calls;
}

const DriverCallback* find_driver_callback(CUpti_CallbackId id) {
  const auto& calls = driver_callbacks();
  const auto it = std::lower_bound(calls.begin(), calls.end(), id,
                                   [](const DriverCallback& c, CUpti_CallbackId wanted) { return c.id < wanted; });
  return it != calls.end() && it->id == id ? &*it : nullptr;
}

}  // namespace labbook::profiler
