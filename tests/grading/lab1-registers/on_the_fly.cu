// Planted submission: no array at all: element (j + start) mod 32 is computed when it is
// needed, from its index, so nothing is left to put in local memory.
#include <cstdint>

#include <cuda_runtime.h>

__global__ void rotated_sum(const std::uint32_t* in, const std::uint32_t* start, std::uint32_t* out, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const std::uint32_t x = in[i], s = start[i];
  std::uint32_t sum = 0;
#pragma unroll
  for (unsigned j = 0; j < 32; ++j) {
    const unsigned k = (j + s) % 32;
    sum += ((x ^ (k * 0x9E3779B9u)) + k) * (j + 1);
  }
  out[i] = sum;
}
