// Planted submission: fast and in registers, but wrong: it makes every index a constant by
// dropping the run-time start (as if start[i] were always 0).
#include <cstdint>

#include <cuda_runtime.h>

__global__ void rotated_sum(const std::uint32_t* in, const std::uint32_t* start, std::uint32_t* out, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const std::uint32_t x = in[i];
  std::uint32_t a[32];
#pragma unroll
  for (unsigned j = 0; j < 32; ++j) a[j] = (x ^ (j * 0x9E3779B9u)) + j;
  std::uint32_t sum = 0;
#pragma unroll
  for (unsigned j = 0; j < 32; ++j) sum += a[j] * (j + 1);
  out[i] = sum;
}
