#pragma once
// Kernels of lab 8 (streams, events and overlap). The lab measures when work runs, not what
// it computes, so each kernel does just enough to be checked exactly:
//   spinFor     one thread waits a given number of nanoseconds (the GPU's global timer), then
//               writes its tag: a long kernel that occupies almost nothing of the GPU;
//   spinCycles  the same for a number of SM clock cycles: short waits in fine steps;
//   affineRounds out[i] = f^rounds(in[i]) with f(x) = a x + c (mod 2^32): a dependent chain of
//               multiply-adds per element, as long as --rounds asks, whose result the host
//               computes in one step (streams_indexing.h); 000's `mykernel` "processes" its array
//               without saying how.
#include <cstdint>

#include <cuda_runtime.h>

#include "streams_indexing.h"

namespace labbook::kernels {

/// out[i] = round_map() applied `rounds` times to in[i], for i < n; any grid (grid-stride loop).
__global__ void affineRounds(const std::uint32_t* in, std::uint32_t* out, std::size_t n, std::uint32_t rounds) {
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    const Affine f = round_map();
    std::uint32_t x = in[i];
#pragma unroll 1   // one multiply-add per round: unrolled, nvcc folds four rounds into one
    for (std::uint32_t r = 0; r < rounds; ++r) x = f(x);
    out[i] = x;
  }
}

/// The GPU's nanosecond timer (PTX %globaltimer).
__device__ inline std::uint64_t global_ns() {
  std::uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

/// Thread 0 waits until `ns` nanoseconds have passed, then writes out[slot] = tag.
__global__ void spinFor(std::uint64_t ns, std::uint32_t* out, unsigned slot, std::uint32_t tag) {
  if (threadIdx.x != 0 || blockIdx.x != 0) return;
  const std::uint64_t start = global_ns();
  while (global_ns() - start < ns) {
  }
  out[slot] = tag;
}

/// Thread 0 waits `cycles` SM clock cycles, then writes out[slot] = tag.
__global__ void spinCycles(long long cycles, std::uint32_t* out, unsigned slot, std::uint32_t tag) {
  if (threadIdx.x != 0 || blockIdx.x != 0) return;
  const long long start = clock64();
  while (clock64() - start < cycles) {
  }
  out[slot] = tag;
}

}  // namespace labbook::kernels
