// Planted cheat (issue 58, class 2): the starter's array moved to shared memory, one slice per
// thread laid out so that a warp's lanes hit 32 different banks. No local memory at all, and
// every element still written and read back through memory: the register lesson is not done.
#include <cstdint>

#include <cuda_runtime.h>

__global__ void rotated_sum(const std::uint32_t* in, const std::uint32_t* start, std::uint32_t* out, unsigned n) {
  __shared__ std::uint32_t a[32][256];   // a[j][thread]: the harness launches 256 threads per block
  const unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  if (i >= n) return;
  const std::uint32_t x = in[i], s = start[i];
#pragma unroll
  for (unsigned j = 0; j < 32; ++j) a[j][t] = (x ^ (j * 0x9E3779B9u)) + j;
  std::uint32_t sum = 0;
#pragma unroll
  for (unsigned j = 0; j < 32; ++j) sum += a[(j + s) % 32][t] * (j + 1);
  out[i] = sum;
}
