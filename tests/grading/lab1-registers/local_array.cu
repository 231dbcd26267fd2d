// Planted submission: the starter as handed out, lab 1's localArrayRuntime: right, but its
// array is indexed at run time, so it lives in local memory (128 bytes of stack per thread).
#include <cstdint>

#include <cuda_runtime.h>

__global__ void rotated_sum(const std::uint32_t* in, const std::uint32_t* start, std::uint32_t* out, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const std::uint32_t x = in[i], s = start[i];
  std::uint32_t a[32];
#pragma unroll
  for (unsigned j = 0; j < 32; ++j) a[j] = (x ^ (j * 0x9E3779B9u)) + j;
  std::uint32_t sum = 0;
  // (j + s) % 32 is known only at run time: the compiler cannot name the register it would
  // read, so it keeps `a` in local memory (lab 1's local/runtime_index).
#pragma unroll
  for (unsigned j = 0; j < 32; ++j) sum += a[(j + s) % 32] * (j + 1);
  out[i] = sum;
}
