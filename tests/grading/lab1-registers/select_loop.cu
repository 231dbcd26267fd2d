// Planted submission: right and in registers, but slow: each read picks a[(j + start) % 32]
// by comparing its index with all 32 constants, 32 selects per element instead of one load.
#include <cstdint>

#include <cuda_runtime.h>

__global__ void rotated_sum(const std::uint32_t* in, const std::uint32_t* start, std::uint32_t* out, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const std::uint32_t x = in[i], s = start[i];
  std::uint32_t a[32];
#pragma unroll
  for (unsigned k = 0; k < 32; ++k) a[k] = (x ^ (k * 0x9E3779B9u)) + k;
  std::uint32_t sum = 0;
#pragma unroll
  for (unsigned j = 0; j < 32; ++j) {
    const unsigned want = (j + s) % 32;
    std::uint32_t v = 0;
#pragma unroll
    for (unsigned k = 0; k < 32; ++k) v = k == want ? a[k] : v;
    sum += v * (j + 1);
  }
  out[i] = sum;
}
