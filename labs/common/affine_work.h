#pragma once
// The work of the host-code exercises (labs 2 and 8): each harness hands the student
// `process_words`, which launches lab 8's affineRounds with the exercise's rounds through
// launch_affine_rounds, so that the exercise is the copies and streams around it.
#include <cstddef>
#include <cstdint>

#include <cuda_runtime.h>

#include "streams.cuh"

namespace labbook::lab {

/// out = `rounds` affine rounds of in, n words of device memory, asynchronously on `stream`:
/// 256 threads a block, at most 4096 blocks (the kernel's grid-stride loop covers the rest).
inline void launch_affine_rounds(const std::uint32_t* in, std::uint32_t* out, std::size_t n, std::uint32_t rounds,
                                 cudaStream_t stream) {
  constexpr unsigned kThreads = 256, kMostBlocks = 4096;
  if (n == 0) return;
  const std::size_t blocks = (n + kThreads - 1) / kThreads;
  kernels::affineRounds<<<static_cast<unsigned>(blocks < kMostBlocks ? blocks : kMostBlocks), kThreads, 0, stream>>>(
      in, out, n, rounds);
}

}  // namespace labbook::lab
