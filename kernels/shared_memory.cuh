#pragma once
// Kernels of lab 3 (shared memory and bank conflicts), after 000_e84d1941bb8bbaf9.txt (V-A,
// strided access, char, double and a double split in two int arrays, structures, broadcast,
// each bank's bandwidth) and 002_12108229d490a2fe.txt (two dynamic arrays in one buffer,
// reverseArray_multiblock and its shared-memory version). Each kernel first fills its
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

/// 000, V-A: a double per element whose two 32-bit halves both matter (the low word of
/// k + 1/3 is not zero), so that the host sees whether hi and lo were put back together right.
__host__ __device__ inline double split_value(unsigned i) { return static_cast<double>(i % 4093) + 1.0 / 3.0; }

/// A double per thread in shared memory, each thread reading its own element kSplitReads
/// times: one 8-byte load (LDS.64) each time. The reads go through a volatile pointer so
/// that each is a load; their bit patterns are summed as integers, so that the FP64 units
/// (slow on many GPUs) do not set the time.
__global__ void sharedDoubleReads(unsigned long long* out) {
  __shared__ double doubles[kSharedThreads];
  doubles[threadIdx.x] = split_value(threadIdx.x);
  __syncthreads();
  volatile const double* v = doubles;
  unsigned long long sum = 0;
  for (unsigned r = 0; r < kSplitReads; ++r) sum += static_cast<unsigned long long>(__double_as_longlong(v[threadIdx.x]));
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

/// The same double split as 000 writes it: its low and high 32-bit words in two int arrays
/// (__double2loint, __double2hiint), each read put back together with __hiloint2double: two
/// 4-byte loads (LDS) per read.
__global__ void sharedDoubleHiLo(unsigned long long* out) {
  __shared__ int shared_lo[kSharedThreads];
  __shared__ int shared_hi[kSharedThreads];
  const double dataIn = split_value(threadIdx.x);
  shared_lo[threadIdx.x] = __double2loint(dataIn);
  shared_hi[threadIdx.x] = __double2hiint(dataIn);
  __syncthreads();
  volatile const int* lo = shared_lo;
  volatile const int* hi = shared_hi;
  unsigned long long sum = 0;
  for (unsigned r = 0; r < kSplitReads; ++r) {
    const double dataOut = __hiloint2double(hi[threadIdx.x], lo[threadIdx.x]);
    sum += static_cast<unsigned long long>(__double_as_longlong(dataOut));
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

/// Value of word i of the throughput kernel's array.
__host__ __device__ inline unsigned bandwidth_value(unsigned i) { return i * 2654435761u + 1u; }

/// Where and for how many SM clocks one block of the throughput kernel ran its loads.
struct BlockClock {
  long long start, end;   ///< clock64() after the array is filled and after the last load
  unsigned sm;            ///< %smid: the SM the block ran on
  unsigned unused;
};

/// Each bank's bandwidth: every thread makes kBandwidthRounds x kBandwidthLoadsPerRound
/// independent 4-byte loads, load j of a round at word bandwidth_word(tid, j, s), summed into
/// four accumulators (the sum goes to `out`, so every load must happen). The pointer is
/// volatile so that the rounds cannot be folded into one. Thread 0 of each block records its
/// SM and the SM clock around the loads.
__global__ void sharedBandwidth(unsigned* out, BlockClock* clocks, unsigned s) {
  __shared__ unsigned words[kBandwidthWords];
  fill_shared(words, kBandwidthWords, [](unsigned i) { return bandwidth_value(i); });
  const long long start = clock64();
  volatile const unsigned* w = words;
  unsigned sum[4] = {0, 0, 0, 0};
#pragma unroll 1
  for (unsigned r = 0; r < kBandwidthRounds; ++r) {
#pragma unroll
    for (unsigned j = 0; j < kBandwidthLoadsPerRound; ++j) sum[j % 4] += w[bandwidth_word(threadIdx.x, j, s)];
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned sm = 0;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    clocks[blockIdx.x] = {start, clock64(), sm, 0};
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum[0] + sum[1] + sum[2] + sum[3];
}

/// 002: all dynamically allocated shared arrays of a kernel start at the same address. Two
/// `extern __shared__` declarations of different types: the second one's words are the first
/// one's. `distance` gets the bytes between them as the kernel sees them.
__global__ void twoExternDeclarations(unsigned* out, unsigned* distance) {
  extern __shared__ float externFloats[];
  extern __shared__ unsigned externWords[];
  externFloats[threadIdx.x] = shared_value(threadIdx.x);
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = externWords[threadIdx.x];   // the float's bits
  if (blockIdx.x == 0 && threadIdx.x == 0)
    *distance = static_cast<unsigned>(reinterpret_cast<const char*>(externWords) - reinterpret_cast<const char*>(externFloats));
}

/// Values of the two carved arrays (exact in float and double: small integers and halves).
__host__ __device__ inline float first_array_value(unsigned i) { return static_cast<float>(i) + 0.5f; }
__host__ __device__ inline float second_array_value(unsigned i) { return static_cast<float>(1000u + i); }

/// 002's two arrays of one type from one dynamic buffer, as it writes them: a holds aSize
/// floats, b = &a[aSize] one float per thread. Thread t adds a's element mirrored_element(t)
/// (so a's last element, next to b, is read too) to b[t]; `offset` gets b's distance from a in
/// bytes as the kernel sees it.
__global__ void twoArraysOneType(float* out, unsigned* offset, unsigned aSize) {
  extern __shared__ float sData[];
  float *a, *b;
  a = sData;
  b = &a[aSize];
  for (unsigned i = threadIdx.x; i < aSize; i += blockDim.x) a[i] = first_array_value(i);
  b[threadIdx.x] = second_array_value(threadIdx.x);
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = a[mirrored_element(threadIdx.x, aSize)] + b[threadIdx.x];
  if (blockIdx.x == 0 && threadIdx.x == 0)
    *offset = static_cast<unsigned>(reinterpret_cast<const char*>(b) - reinterpret_cast<const char*>(a));
}

/// Two arrays of different types from one buffer: aSize shorts, then one double per thread.
/// b = (double*)&a[aSize] would start 2 x aSize bytes in, not a multiple of 8 for an odd
/// aSize (a misaligned-address error); b starts at the next multiple of alignof(double)
/// instead. The buffer is declared as double so that its start suits both types.
__global__ void twoArraysTwoTypes(double* out, unsigned* offset, unsigned aSize) {
  extern __shared__ double sBuffer[];
  short* a = reinterpret_cast<short*>(sBuffer);
  double* b = reinterpret_cast<double*>(reinterpret_cast<char*>(sBuffer) +
                                        second_array_offset(aSize * static_cast<unsigned>(sizeof(short)), alignof(double)));
  for (unsigned i = threadIdx.x; i < aSize; i += blockDim.x) a[i] = static_cast<short>(i);
  b[threadIdx.x] = static_cast<double>(second_array_value(threadIdx.x));
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = static_cast<double>(a[mirrored_element(threadIdx.x, aSize)]) + b[threadIdx.x];
  if (blockIdx.x == 0 && threadIdx.x == 0)
    *offset = static_cast<unsigned>(reinterpret_cast<const char*>(b) - reinterpret_cast<const char*>(a));
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
