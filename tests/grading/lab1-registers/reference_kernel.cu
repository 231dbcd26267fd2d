// Adversarial: lets lab 1's own localArrayRuntime, which the harness links in, do the work as
// a child grid, so that the kernel the harness launches shows no local traffic of its own.
#include <cstdint>

#include <cuda_runtime.h>

namespace labbook::kernels {
__global__ void localArrayRuntime(const std::uint32_t* in, const std::uint32_t* start, std::uint32_t* out, unsigned n);
}

__global__ void rotated_sum(const std::uint32_t* in, const std::uint32_t* start, std::uint32_t* out, unsigned n) {
  if (blockIdx.x == 0 && threadIdx.x == 0) labbook::kernels::localArrayRuntime<<<gridDim, blockDim>>>(in, start, out, n);
}
