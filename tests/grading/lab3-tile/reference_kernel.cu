// Planted cheat: lets lab 5's own transposeTiled<true>, which the harness links in for its
// reference calls, do the work as a child grid, so that the kernel the harness launches touches
// no tile itself. Refused at build: the submission's device code calls lab 5's kernel.
#include <cuda_runtime.h>

namespace labbook::kernels {
template <bool Padded>
__global__ void transposeTiled(const float* in, float* out, unsigned nx, unsigned ny);
}  // namespace labbook::kernels

__global__ void transpose_tile(const float* in, float* out, unsigned nx, unsigned ny) {
  if (blockIdx.x == 0 && blockIdx.y == 0 && threadIdx.x == 0 && threadIdx.y == 0)
    labbook::kernels::transposeTiled<true><<<gridDim, blockDim>>>(in, out, nx, ny);
}
