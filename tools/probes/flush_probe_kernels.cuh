#pragma once
// The kernels and sizes the L2 flush probes share (l2_flush_state.cu, profiler_apis.cu): the
// 1024² naive transpose of tests/programs/transpose (4-byte stores 4 KB apart, so that every
// sector is written partially by 8 warps), a coalesced copy, and a flush's write and discard
// passes over a buffer, as labbook's flusher makes them (profiler/l2_flush_kernel.h).
#include <cstddef>

constexpr int kN = 1024, kTile = 32, kRows = 8;
constexpr unsigned kBlocks = 1056, kThreads = 256;

__global__ void copy_rows(float* out, const float* in, int n) {
  const int x = blockIdx.x * kTile + threadIdx.x, y = blockIdx.y * kTile + threadIdx.y;
  for (int j = 0; j < kTile; j += kRows) out[(y + j) * n + x] = in[(y + j) * n + x];
}

__global__ void transpose_naive(float* out, const float* in, int n) {
  const int x = blockIdx.x * kTile + threadIdx.x, y = blockIdx.y * kTile + threadIdx.y;
  for (int j = 0; j < kTile; j += kRows) out[x * n + (y + j)] = in[(y + j) * n + x];
}

__global__ void flush_write(uint4* buffer, size_t units) {
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < units; i += gridDim.x * blockDim.x)
    buffer[i] = make_uint4(0, 0, 0, 0);
}

__global__ void flush_discard(char* buffer, size_t lines) {
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < lines; i += gridDim.x * blockDim.x)
    asm volatile("discard.global.L2 [%0], 128;" ::"l"(buffer + i * 128) : "memory");
}
