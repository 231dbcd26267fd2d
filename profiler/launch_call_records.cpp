#include "launch_call_records.h"

#include <cupti_runtime_cbid.h>

namespace labbook::profiler {

namespace {
constexpr CUpti_CallbackId kRuntimeLaunchCalls[] = {
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunch_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunch_ptsz_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernelMultiDevice_v9000,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060,
    CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000,
    CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_ptsz_v13000,
};
}  // namespace

bool launches_a_kernel(CUpti_CallbackId runtime_cbid) {
  for (CUpti_CallbackId cbid : kRuntimeLaunchCalls)
    if (cbid == runtime_cbid) return true;
  return false;
}

bool take_launch_call_records(EnableRuntimeApi enable) {
  for (CUpti_CallbackId cbid : kRuntimeLaunchCalls)
    if (enable(cbid, 0) != CUPTI_SUCCESS) {
      leave_launch_call_records(enable);
      return false;
    }
  return true;
}

void leave_launch_call_records(EnableRuntimeApi enable) {
  for (CUpti_CallbackId cbid : kRuntimeLaunchCalls) enable(cbid, 1);
}

}  // namespace labbook::profiler
