#pragma once
// Kernels of lab 3 (shared memory and bank conflicts), after 000_e84d1941bb8bbaf9.txt (V-A,
// strided access, char, double, structures, broadcast) and 002_12108229d490a2fe.txt
// (reverseArray_multiblock and its shared-memory version). Each kernel first fills its
// shared array with stores every thread makes side by side (no conflict), then makes the
// one access the experiment is about and writes what it read to global memory, where the
// lab checks it. Index arithmetic: shared_memory_indexing.h.
#include <cuda_runtime.h>

#include "shared_memory_indexing.h"

namespace labbook::kernels {

/// Value stored at element i of every shared array, so the host knows what each read sees.
__host__ __device__ inline float shared_value(unsigned i) { return static_cast<float>(i % 4093) + 0.5f; }

/// Fills `count` elements of `items` with make(i), threads side by side.
template <typename T, typename Make>
__device__ void fill_shared(T* items, unsigned count, const Make& make) {
  for (unsigned i = threadIdx.x; i < count; i += blockDim.x) items[i] = make(i);
  __syncthreads();
}

/// out[thread] = words[s * tid]: 4-byte words, stride s (dynamic shared: s x blockDim words).
__global__ void sharedStride(float* out, unsigned s) {
  extern __shared__ float words[];
  fill_shared(words, s * blockDim.x, [](unsigned i) { return shared_value(i); });
  out[blockIdx.x * blockDim.x + threadIdx.x] = words[strided_element(threadIdx.x, s)];
}

/// The same with 1-byte elements: chars[s * tid] (000: shared[tid] and shared[4 * tid]).
__global__ void sharedChar(unsigned char* out, unsigned s) {
  extern __shared__ unsigned char chars[];
  fill_shared(chars, s * blockDim.x, [](unsigned i) { return static_cast<unsigned char>(i * 7u); });
  out[blockIdx.x * blockDim.x + threadIdx.x] = chars[strided_element(threadIdx.x, s)];
}

/// 8-byte elements: doubles[tid].
__global__ void sharedDouble(double* out) {
  __shared__ double doubles[kSharedThreads];
  fill_shared(doubles, blockDim.x, [](unsigned i) { return static_cast<double>(shared_value(i)); });
  out[blockIdx.x * blockDim.x + threadIdx.x] = doubles[threadIdx.x];
}

/// 000's structures. Members are read through a volatile reference, one load each, as the
/// source reasons about them (a compiler may otherwise merge two floats into one 8-byte load).
struct FloatXYZ { float x, y, z; };
struct FloatXY { float x, y; };
struct FloatChar { float f; char c; };

__device__ inline float members(volatile const FloatXYZ& v) { return v.x + v.y + v.z; }
__device__ inline float members(volatile const FloatXY& v) { return v.x + v.y; }
__device__ inline float members(volatile const FloatChar& v) { return v.f + static_cast<float>(v.c); }
__host__ __device__ inline FloatXYZ make_xyz(unsigned i) { return {shared_value(i), 1.f, 2.f}; }
__host__ __device__ inline FloatXY make_xy(unsigned i) { return {shared_value(i), 1.f}; }
__host__ __device__ inline FloatChar make_fc(unsigned i) { return {shared_value(i), static_cast<char>(i % 100)}; }

/// out[thread] = the sum of items[tid]'s members.
template <typename T, T (*Make)(unsigned)>
__global__ void sharedStruct(float* out) {
  __shared__ T items[kSharedThreads];
  fill_shared(items, blockDim.x, [](unsigned i) { return Make(i); });
  out[blockIdx.x * blockDim.x + threadIdx.x] = members(items[threadIdx.x]);
}

/// Every lane reads the same word: one broadcast.
__global__ void sharedBroadcast(float* out) {
  __shared__ float words[kSharedThreads];
  fill_shared(words, blockDim.x, [](unsigned i) { return shared_value(i); });
  out[blockIdx.x * blockDim.x + threadIdx.x] = words[0];
}

/// reverseArray_multiblock (Farber's part 4, which 002 builds on): each thread writes its
/// element straight to its reversed position in global memory.
__global__ void reverseArrayBlock(const int* in, int* out) {
  const unsigned in_offset = blockIdx.x * blockDim.x;
  const unsigned out_offset = reversed_block(blockIdx.x, gridDim.x) * blockDim.x;
  out[out_offset + reversed_thread(threadIdx.x, blockDim.x)] = in[in_offset + threadIdx.x];
}

/// reverseArray_multiblock_fast (002): read in order, reverse in shared memory, write in order.
__global__ void reverseArrayBlockShared(const int* in, int* out) {
  extern __shared__ int reversed[];
  const unsigned in_offset = blockIdx.x * blockDim.x;
  reversed[reversed_thread(threadIdx.x, blockDim.x)] = in[in_offset + threadIdx.x];
  __syncthreads();
  const unsigned out_offset = reversed_block(blockIdx.x, gridDim.x) * blockDim.x;
  out[out_offset + threadIdx.x] = reversed[threadIdx.x];
}

/// Each 32 x 32 tile of an n x n matrix transposed in place through shared memory: rows
/// written to the tile, columns read back. Pitch 32 puts a column in one bank; 33 spreads it.
template <unsigned Pitch>
__global__ void tileColumnRead(const float* in, float* out, unsigned n) {
  __shared__ float tile[kTile * Pitch];
  const unsigned x = blockIdx.x * kTile + threadIdx.x, y0 = blockIdx.y * kTile;
  // A fixed trip count (4 rows per thread): no guarded remainder, so each warp executes
  // exactly 4 loads and 4 stores of each kind, as the model counts them.
#pragma unroll
  for (unsigned j = 0; j < kTile; j += kTileRows) {
    const unsigned r = threadIdx.y + j;
    tile[tile_word(r, threadIdx.x, Pitch)] = in[(y0 + r) * n + x];
  }
  __syncthreads();
#pragma unroll
  for (unsigned j = 0; j < kTile; j += kTileRows) {
    const unsigned r = threadIdx.y + j;
    out[(y0 + r) * n + x] = tile[tile_word(threadIdx.x, r, Pitch)];
  }
}

}  // namespace labbook::kernels
