#pragma once
/// @file
/// Waiting for one CUDA context's work, whichever context the calling thread has current.
#include <cuda.h>

namespace labbook::profiler {

/// Waits for all work queued in `ctx`, made current for the call and the caller's put back.
/// A failure is the program's own (a kernel's fault), which its next call reports: not
/// returned, nor cleared.
inline void synchronize_context(CUcontext ctx) {
  if (cuCtxPushCurrent(ctx) != CUDA_SUCCESS) return;
  cuCtxSynchronize();
  CUcontext popped = nullptr;
  cuCtxPopCurrent(&popped);
}

}  // namespace labbook::profiler
