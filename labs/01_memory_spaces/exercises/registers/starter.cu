// Lab 1 exercise: a per-thread array in registers. The kernel below is right, but its array
// lives in local memory: rewrite it so that nothing goes to local memory, and keep its
// signature. The harness launches it itself, with 256 threads per block and ceil(n / 256)
// blocks. Write nothing that runs by itself (no main, no global objects), open no files,
// start no threads or processes.
//
// Thread i builds a[j] = (in[i] ^ (j * 0x9E3779B9)) + j for j < 32, then writes to out[i] the
// sum over j < 32 of a[(j + start[i]) % 32] * (j + 1), in 32-bit unsigned arithmetic (it
// wraps around), for every i < n. start[i] is 0 to 31, different from thread to thread.
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
