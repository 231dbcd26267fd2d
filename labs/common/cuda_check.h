#pragma once
// CUDA_CHECK(call): abort the lab with file:line and CUDA's message when a call fails.
#include <cstdio>
#include <cstdlib>

#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                                 \
  do {                                                                                   \
    const cudaError_t status_ = (call);                                                  \
    if (status_ != cudaSuccess) {                                                        \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,          \
                   cudaGetErrorString(status_));                                         \
      std::exit(1);                                                                      \
    }                                                                                    \
  } while (0)

namespace labbook::lab {

/// Exit code that means "skipped: no GPU here" (CTest's SKIP_RETURN_CODE).
inline constexpr int kExitNoGpu = 77;

/// Exits with kExitNoGpu and a message when no CUDA device can be used; returns device 0's
/// properties, which every lab prints in its first line.
inline cudaDeviceProp require_gpu() {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess || count == 0) {
    std::fprintf(stderr, "no CUDA GPU available (%s): skipping\n",
                 status != cudaSuccess ? cudaGetErrorString(status) : "0 devices");
    std::exit(kExitNoGpu);
  }
  cudaDeviceProp prop{};
  CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  return prop;
}

}  // namespace labbook::lab
