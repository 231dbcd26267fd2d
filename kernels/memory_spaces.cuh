#pragma once
// Kernels of lab 1 (memory spaces), after 002_12108229d490a2fe.txt ("CUDA 内存性能",
// "寄存器/本地内存注意事项"), 003_c67e0f909fb510d6.txt (Table 4-2, the __device__ variable)
// and 004_12112d3317679e06.txt (ptxas -v, registers, local and constant memory).
//
// Latency kernels run one thread that follows a chain of dependent reads: each read's
// address is the value the previous one returned, so nothing overlaps and the kernel's
// cycles divided by the reads it made is the latency of one read. Arithmetic shared with the
// host: memory_spaces_indexing.h.
#include <cstdint>

#include <cuda_runtime.h>

#include "memory_spaces_indexing.h"

namespace labbook::kernels {

/// Ring of the constant-memory chase: byte offsets, entry e holding the offset of the next.
inline constexpr unsigned kConstantRing = 256;
/// Words of the shared-memory chase's ring (16 KiB).
inline constexpr unsigned kSharedRing = 4096;
/// Dependent steps per loop iteration of the chases (the loop's own instructions are a
/// small share of each iteration).
inline constexpr unsigned kChaseUnroll = 16;

__constant__ std::uint32_t c_ring[kConstantRing];
__constant__ std::uint32_t c_table[kTableEntries];

/// 003's static global variable (« Déclaration de mémoire globale statique »).
__device__ float devData;

/// Writes the chase's ring into `next`: slot order[i] points to slot order[i + 1] (word
/// indices), the last one back to the first. One thread per slot.
__global__ void buildRing(std::uint32_t* next, const std::uint32_t* order, std::uint32_t slots,
                          std::uint32_t stride_words) {
  const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= slots) return;
  const std::uint32_t to = order[(i + 1) % slots];
  next[static_cast<std::uint64_t>(order[i]) * stride_words] = to * stride_words;
}

/// Global memory: j = next[j], `steps` times (a multiple of kChaseUnroll). Through L1 and L2
/// (the default for global loads on this GPU); the working set decides where the reads hit.
__global__ void chaseGlobal(const std::uint32_t* next, std::uint32_t start, std::uint32_t steps,
                            std::uint32_t* out) {
  std::uint32_t j = start;
  for (std::uint32_t s = 0; s < steps; s += kChaseUnroll) {
#pragma unroll
    for (unsigned u = 0; u < kChaseUnroll; ++u) j = next[j];
  }
  *out = j;
}

/// Shared memory: the ring j -> (j + 97) mod kSharedRing (97 is odd, so one cycle through
/// every word), built by the block, then followed by one thread.
__global__ void chaseShared(std::uint32_t steps, std::uint32_t* out) {
  __shared__ std::uint32_t ring[kSharedRing];
  for (unsigned i = threadIdx.x; i < kSharedRing; i += blockDim.x) ring[i] = (i + 97u) % kSharedRing;
  __syncthreads();
  if (threadIdx.x != 0) return;
  std::uint32_t j = 0;
  for (std::uint32_t s = 0; s < steps; s += kChaseUnroll) {
#pragma unroll
    for (unsigned u = 0; u < kChaseUnroll; ++u) j = ring[j];
  }
  *out = j;
}

/// Constant memory: c_ring holds byte offsets, so each step is one LDC with a register
/// address and no index arithmetic in between.
__global__ void chaseConstant(std::uint32_t steps, std::uint32_t* out) {
  const char* base = reinterpret_cast<const char*>(c_ring);
  std::uint32_t j = 0;
  for (std::uint32_t s = 0; s < steps; s += kChaseUnroll) {
#pragma unroll
    for (unsigned u = 0; u < kChaseUnroll; ++u) j = *reinterpret_cast<const std::uint32_t*>(base + j);
  }
  *out = j;
}

/// Registers: a chain of dependent integer multiply-adds, one instruction per step; its
/// cycles per instruction are the latency of reading a register the previous step wrote.
__global__ void chaseRegisters(std::uint32_t seed, std::uint32_t steps, std::uint32_t* out) {
  std::uint32_t x = seed;
  for (std::uint32_t s = 0; s < steps; s += kChaseUnroll) {
#pragma unroll
    for (unsigned u = 0; u < kChaseUnroll; ++u) x = x * 0x01000193u + 0x9E3779B9u;
  }
  *out = x;
}

/// Host value of chaseRegisters' chain.
inline std::uint32_t registers_chain(std::uint32_t seed, std::uint32_t steps) {
  for (std::uint32_t s = 0; s < steps; ++s) seed = seed * 0x01000193u + 0x9E3779B9u;
  return seed;
}

/// Local array indexed at run time: `start` comes from memory, so the compiler cannot map
/// element (j + start) mod 32 to a register and keeps the array in local memory.
__global__ void localArrayRuntime(const std::uint32_t* in, const std::uint32_t* start, std::uint32_t* out,
                                  unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = local_array_result(in[i], start[i]);
}

/// The same array indexed only by constants (the start is a template argument): every
/// element becomes a register.
template <unsigned Start>
__global__ void localArrayCompileTime(const std::uint32_t* in, std::uint32_t* out, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = local_array_result(in[i], Start);
}

/// kLiveValues values live across `rounds` rounds. Compiled as is here;
/// labs/01_memory_spaces/register_cap.cu compiles the same function under a low -maxrregcount.
__global__ void registerPressure(const std::uint32_t* in, std::uint32_t* out, unsigned n, unsigned rounds) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = mix_result(in[i], rounds);
}

/// The same under launch bounds (003: « Contrôler les registres avec les limites de
/// lancement »): blocks of up to kBoundedThreads threads, at least kBoundedBlocks of them
/// resident per SM, so ptxas must fit 2 x 1024 threads into the SM's 65,536 registers: at
/// most 32 per thread, where the unbounded build takes more.
constexpr unsigned kBoundedThreads = 1024, kBoundedBlocks = 2;
__global__ void __launch_bounds__(kBoundedThreads, kBoundedBlocks)
    registerPressureBounded(const std::uint32_t* in, std::uint32_t* out, unsigned n, unsigned rounds) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = mix_result(in[i], rounds);
}

/// Every thread sums `rounds` entries of the first `entries` of c_table (a power of two): one
/// entry per round for the whole warp, or one per lane (memory_spaces_indexing.h:
/// table_entry). `entries` sets the working set the constant cache must hold.
template <bool Divergent>
__global__ void tableConstant(std::uint32_t* out, unsigned rounds, unsigned entries) {
  const unsigned lane = threadIdx.x % 32;
  std::uint32_t sum = 0;
  for (unsigned r = 0; r < rounds; ++r) sum += c_table[table_entry(r, lane, Divergent, entries)];
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

/// The same reads from a table in global memory.
template <bool Divergent>
__global__ void tableGlobal(const std::uint32_t* table, std::uint32_t* out, unsigned rounds, unsigned entries) {
  const unsigned lane = threadIdx.x % 32;
  std::uint32_t sum = 0;
  for (unsigned r = 0; r < rounds; ++r) sum += table[table_entry(r, lane, Divergent, entries)];
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

/// 003's checkGlobalVariable: the kernel adds 2 to the value the host put in devData.
__global__ void checkGlobalVariable() { devData += 2.0f; }

}  // namespace labbook::kernels
