#include "kernel_relaunch.h"

#include <cuda.h>

#include "driver_callbacks.h"
#include "driver_status.h"

namespace labbook::profiler {

namespace {

thread_local bool t_relaunching = false;

/// A launch call's parameters, whichever of the six launch calls it was.
struct LaunchParameters {
  enum class Api { Kernel, Cooperative, KernelEx, Other } api = Api::Other;
  CUfunction f = nullptr;
  unsigned grid[3] = {}, block[3] = {}, shared_bytes = 0;
  CUstream stream = nullptr;
  void** arguments = nullptr;
  void** extra = nullptr;
  CUlaunchConfig config{};   // KernelEx: as the program gave it (clusters, priorities...)
};

template <class P>
LaunchParameters shaped(LaunchParameters::Api api, const P* p, CUstream stream, void** extra) {
  LaunchParameters c;
  c.api = api;
  c.f = p->f;
  c.grid[0] = p->gridDimX, c.grid[1] = p->gridDimY, c.grid[2] = p->gridDimZ;
  c.block[0] = p->blockDimX, c.block[1] = p->blockDimY, c.block[2] = p->blockDimZ;
  c.shared_bytes = p->sharedMemBytes;
  c.stream = stream;
  c.arguments = p->kernelParams;
  c.extra = extra;
  return c;
}

template <class P>
LaunchParameters extended(const P* p, bool ptsz) {
  LaunchParameters c;
  c.api = LaunchParameters::Api::KernelEx;
  c.f = p->f;
  c.config = *p->config;
  if (ptsz) c.config.hStream = per_thread_stream(c.config.hStream);
  c.arguments = p->kernelParams;
  c.extra = p->extra;
  return c;
}

LaunchParameters decoded(CUpti_CallbackId cbid, const void* params) {
  using Api = LaunchParameters::Api;
  switch (cbid) {
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel: {
      const auto* p = static_cast<const cuLaunchKernel_params*>(params);
      return shaped(Api::Kernel, p, p->hStream, p->extra);
    }
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz: {
      const auto* p = static_cast<const cuLaunchKernel_ptsz_params*>(params);
      return shaped(Api::Kernel, p, per_thread_stream(p->hStream), p->extra);
    }
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel: {
      const auto* p = static_cast<const cuLaunchCooperativeKernel_params*>(params);
      return shaped(Api::Cooperative, p, p->hStream, nullptr);
    }
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz: {
      const auto* p = static_cast<const cuLaunchCooperativeKernel_ptsz_params*>(params);
      return shaped(Api::Cooperative, p, per_thread_stream(p->hStream), nullptr);
    }
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
      return extended(static_cast<const cuLaunchKernelEx_params*>(params), false);
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz:
      return extended(static_cast<const cuLaunchKernelEx_ptsz_params*>(params), true);
    default: return {};   // cuLaunch, cuLaunchGrid, cuLaunchGridAsync: deprecated
  }
}

}  // namespace

std::string relaunch_kernel(CUpti_CallbackId cbid, const void* params) {
  LaunchParameters c = decoded(cbid, params);
  switch (c.api) {
    case LaunchParameters::Api::Kernel:
      if (CUresult r = cuLaunchKernel(c.f, c.grid[0], c.grid[1], c.grid[2], c.block[0], c.block[1], c.block[2],
                                      c.shared_bytes, c.stream, c.arguments, c.extra);
          r != CUDA_SUCCESS)
        return describe_driver_call("cuLaunchKernel", r);
      return "";
    case LaunchParameters::Api::Cooperative:
      if (CUresult r = cuLaunchCooperativeKernel(c.f, c.grid[0], c.grid[1], c.grid[2], c.block[0], c.block[1],
                                                 c.block[2], c.shared_bytes, c.stream, c.arguments);
          r != CUDA_SUCCESS)
        return describe_driver_call("cuLaunchCooperativeKernel", r);
      return "";
    case LaunchParameters::Api::KernelEx:
      if (CUresult r = cuLaunchKernelEx(&c.config, c.f, c.arguments, c.extra); r != CUDA_SUCCESS)
        return describe_driver_call("cuLaunchKernelEx", r);
      return "";
    default:
      return "the kernel was launched through a deprecated call (cuLaunch, cuLaunchGrid) that labbook does not "
             "launch again";
  }
}

std::string load_kernel(CUpti_CallbackId cbid, const void* params) {
  const CUfunction f = decoded(cbid, params).f;
  if (!f) return "";   // relaunch_kernel() says why it cannot launch these
  CUresult r = cuFuncLoad(f);
  if (r != CUDA_SUCCESS) {   // the runtime may hand the driver a CUkernel as a CUfunction
    CUfunction loaded = nullptr;
    if (cuKernelGetFunction(&loaded, reinterpret_cast<CUkernel>(f)) == CUDA_SUCCESS) r = cuFuncLoad(loaded);
  }
  return r == CUDA_SUCCESS ? "" : describe_driver_call("cuFuncLoad", r);
}

bool relaunching() { return t_relaunching; }

RelaunchGuard::RelaunchGuard() { t_relaunching = true; }
RelaunchGuard::~RelaunchGuard() { t_relaunching = false; }

}  // namespace labbook::profiler
