// Planted submission: the array read in its own order, a[k] for k = 0..31, every index a
// constant, so it lives in registers; the rotation moves into the weights: element k is
// element j = (k - start) mod 32 of the rotated order, weighted j + 1.
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
  for (unsigned k = 0; k < 32; ++k) sum += a[k] * (((k + 32 - s) % 32) + 1);
  out[i] = sum;
}
