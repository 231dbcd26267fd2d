#pragma once
/// @file
/// Waiting for one CUDA context's work, whichever context the calling thread has current.
#include <cuda.h>

namespace labbook::profiler {

/// Waits for all work queued in `ctx`, made current for the call and the caller's put back.
/// Returns what the wait returned: a failure there is the program's own (a kernel's fault),
/// which its next call reports too; nothing is cleared.
inline CUresult synchronize_context(CUcontext ctx) {
  if (CUresult pushed = cuCtxPushCurrent(ctx); pushed != CUDA_SUCCESS) return pushed;
  const CUresult waited = cuCtxSynchronize();
  CUcontext popped = nullptr;
  cuCtxPopCurrent(&popped);
  return waited;
}

}  // namespace labbook::profiler
