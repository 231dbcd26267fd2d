#include "kernel_relaunch.h"

#include <cuda.h>

namespace labbook::profiler {

namespace {

thread_local bool t_relaunching = false;

/// The per-thread-default-stream variants name the calling thread's default stream as 0.
CUstream per_thread(CUstream named) { return named ? named : CU_STREAM_PER_THREAD; }

std::string failed(const char* call, CUresult r) {
  const char* name = nullptr;
  cuGetErrorName(r, &name);
  return std::string(call) + " failed (" + (name ? name : std::to_string(static_cast<int>(r))) + ")";
}

template <class P>
std::string launch_kernel(const P* p, CUstream stream) {
  const CUresult r = cuLaunchKernel(p->f, p->gridDimX, p->gridDimY, p->gridDimZ, p->blockDimX, p->blockDimY,
                                    p->blockDimZ, p->sharedMemBytes, stream, p->kernelParams, p->extra);
  return r == CUDA_SUCCESS ? "" : failed("cuLaunchKernel", r);
}

template <class P>
std::string launch_cooperative(const P* p, CUstream stream) {
  const CUresult r = cuLaunchCooperativeKernel(p->f, p->gridDimX, p->gridDimY, p->gridDimZ, p->blockDimX,
                                               p->blockDimY, p->blockDimZ, p->sharedMemBytes, stream, p->kernelParams);
  return r == CUDA_SUCCESS ? "" : failed("cuLaunchCooperativeKernel", r);
}

template <class P>
std::string launch_ex(const P* p, bool ptsz) {
  CUlaunchConfig config = *p->config;   // attributes (clusters, priorities...) as the program gave them
  if (ptsz) config.hStream = per_thread(config.hStream);
  const CUresult r = cuLaunchKernelEx(&config, p->f, p->kernelParams, p->extra);
  return r == CUDA_SUCCESS ? "" : failed("cuLaunchKernelEx", r);
}

}  // namespace

std::string relaunch_kernel(CUpti_CallbackId cbid, const void* params) {
  switch (cbid) {
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel: {
      const auto* p = static_cast<const cuLaunchKernel_params*>(params);
      return launch_kernel(p, p->hStream);
    }
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz: {
      const auto* p = static_cast<const cuLaunchKernel_ptsz_params*>(params);
      return launch_kernel(p, per_thread(p->hStream));
    }
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
      return launch_ex(static_cast<const cuLaunchKernelEx_params*>(params), false);
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz:
      return launch_ex(static_cast<const cuLaunchKernelEx_ptsz_params*>(params), true);
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel: {
      const auto* p = static_cast<const cuLaunchCooperativeKernel_params*>(params);
      return launch_cooperative(p, p->hStream);
    }
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz: {
      const auto* p = static_cast<const cuLaunchCooperativeKernel_ptsz_params*>(params);
      return launch_cooperative(p, per_thread(p->hStream));
    }
    default:
      return "the kernel was launched through a deprecated call (cuLaunch, cuLaunchGrid) that labbook does not "
             "launch again";
  }
}

std::string load_kernel(CUpti_CallbackId cbid, const void* params) {
  CUfunction f = nullptr;
  switch (cbid) {
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel: f = static_cast<const cuLaunchKernel_params*>(params)->f; break;
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz: f = static_cast<const cuLaunchKernel_ptsz_params*>(params)->f; break;
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx: f = static_cast<const cuLaunchKernelEx_params*>(params)->f; break;
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz:
      f = static_cast<const cuLaunchKernelEx_ptsz_params*>(params)->f;
      break;
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
      f = static_cast<const cuLaunchCooperativeKernel_params*>(params)->f;
      break;
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz:
      f = static_cast<const cuLaunchCooperativeKernel_ptsz_params*>(params)->f;
      break;
    default: return "";   // relaunch_kernel() says why it cannot launch these
  }
  CUresult r = cuFuncLoad(f);
  if (r != CUDA_SUCCESS) {   // the runtime may hand the driver a CUkernel as a CUfunction
    CUfunction loaded = nullptr;
    if (cuKernelGetFunction(&loaded, reinterpret_cast<CUkernel>(f)) == CUDA_SUCCESS) r = cuFuncLoad(loaded);
  }
  return r == CUDA_SUCCESS ? "" : failed("cuFuncLoad", r);
}

bool relaunching() { return t_relaunching; }

RelaunchGuard::RelaunchGuard() { t_relaunching = true; }
RelaunchGuard::~RelaunchGuard() { t_relaunching = false; }

}  // namespace labbook::profiler
