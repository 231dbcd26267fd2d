// Planted cheat (issue 58, class 2): the array in a slice of a global buffer of its own,
// addressed by hand: the traffic local memory makes, under the global counters instead.
#include <cstdint>

#include <cuda_runtime.h>

namespace {
constexpr unsigned kMaxThreads = (1u << 22) + 1024;   // the harness's largest call is 2^22 + 17
__device__ std::uint32_t scratch[32 * kMaxThreads];
}  // namespace

__global__ void rotated_sum(const std::uint32_t* in, const std::uint32_t* start, std::uint32_t* out, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const std::uint32_t x = in[i], s = start[i];
  std::uint32_t* a = scratch + i;   // element j at a[j * kMaxThreads]: a warp's lanes side by side
#pragma unroll
  for (unsigned j = 0; j < 32; ++j) a[j * kMaxThreads] = (x ^ (j * 0x9E3779B9u)) + j;
  std::uint32_t sum = 0;
#pragma unroll
  for (unsigned j = 0; j < 32; ++j) sum += a[((j + s) % 32) * kMaxThreads] * (j + 1);
  out[i] = sum;
}
