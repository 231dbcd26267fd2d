// Planted submission: right and in registers, every index a constant, but slow: a switch on
// the start runs one of 32 fully unrolled copies, and the lanes of a warp, whose starts
// differ, run their copies one after another (about 20 of the 32 per warp).
#include <cstdint>
#include <utility>

#include <cuda_runtime.h>

template <unsigned S>
__device__ std::uint32_t rotated(std::uint32_t x) {
  std::uint32_t a[32];
#pragma unroll
  for (unsigned j = 0; j < 32; ++j) a[j] = (x ^ (j * 0x9E3779B9u)) + j;
  std::uint32_t sum = 0;
#pragma unroll
  for (unsigned j = 0; j < 32; ++j) sum += a[(j + S) % 32] * (j + 1);
  return sum;
}

template <unsigned... S>
__device__ std::uint32_t dispatch(std::uint32_t x, unsigned s, std::integer_sequence<unsigned, S...>) {
  std::uint32_t sum = 0;
  ((s == S ? (sum = rotated<S>(x), 0) : 0), ...);
  return sum;
}

__global__ void rotated_sum(const std::uint32_t* in, const std::uint32_t* start, std::uint32_t* out, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i] = dispatch(in[i], start[i], std::make_integer_sequence<unsigned, 32>{});
}
