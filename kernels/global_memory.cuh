#pragma once
// Kernels of lab 4 (global memory), after 003_c67e0f909fb510d6.txt, chapter 4:
// readSegment / writeSegment (misaligned accesses), simpleMathAoS / simpleMathSoA,
// readSegmentUnroll, and readPattern / writePattern (the access patterns of its figures). Their index arithmetic is in global_memory_indexing.h, which the
// warp-level model (warp_model/) compiles on the host to replay the addresses a warp touches.
#include <cuda_runtime.h>

#include "global_memory_indexing.h"

namespace labbook::kernels {

/// C[i] = A[i + offset] + B[i + offset], loads through L1 (the default on sm_90).
__global__ void readSegment(const float* A, const float* B, float* C, unsigned n, unsigned offset) {
  const unsigned i = thread_index(blockIdx.x, blockDim.x, threadIdx.x);
  const unsigned k = read_segment_index(i, offset);
  if (k < n) C[i] = A[k] + B[k];
}

/// Same, with loads that bypass L1 (__ldcg: cache at L2 only), like -Xptxas -dlcm=cg.
__global__ void readSegmentUncached(const float* A, const float* B, float* C, unsigned n, unsigned offset) {
  const unsigned i = thread_index(blockIdx.x, blockDim.x, threadIdx.x);
  const unsigned k = read_segment_index(i, offset);
  if (k < n) C[i] = __ldcg(&A[k]) + __ldcg(&B[k]);
}

/// C[i + offset] = A[i] + B[i].
__global__ void writeSegment(const float* A, const float* B, float* C, unsigned n, unsigned offset) {
  const unsigned i = thread_index(blockIdx.x, blockDim.x, threadIdx.x);
  const unsigned k = write_segment_index(i, offset);
  if (k < n) C[k] = A[i] + B[i];
}

/// Array of structures: x and y side by side; each field access is a strided 4-byte load.
struct innerStruct {
  float x;
  float y;
};

/// Structure of arrays: all x, then all y.
struct innerArray {
  float* x;
  float* y;
};

__global__ void simpleMathAoS(const innerStruct* data, innerStruct* result, unsigned n) {
  const unsigned i = thread_index(blockIdx.x, blockDim.x, threadIdx.x);
  if (i < n) {
    innerStruct tmp = data[i];
    tmp.x += 10.f;
    tmp.y += 20.f;
    result[i] = tmp;
  }
}

/// Both loads come before either store, as in the source's testInnerArray: `result.x` may
/// alias `data.y`, so `result.x[i] = data.x[i] + 10.f; result.y[i] = data.y[i] + 20.f;`
/// forces the load of y to wait for the store of x, i.e. for the load of x to return. That
/// halves the loads each thread has in flight (one, vs. AoS's two) and made SoA ~13 % slower
/// than AoS on an H100 with the same DRAM bytes.
__global__ void simpleMathSoA(innerArray data, innerArray result, unsigned n) {
  const unsigned i = thread_index(blockIdx.x, blockDim.x, threadIdx.x);
  if (i < n) {
    const float x = data.x[i];
    const float y = data.y[i];
    result.x[i] = x + 10.f;
    result.y[i] = y + 20.f;
  }
}

/// readSegment with U independent loads per thread in flight. Unlike the source's
/// readOffsetUnroll4, each element is guarded on its own, so no tail is left unprocessed.
template <unsigned U>
__global__ void readSegmentUnroll(const float* A, const float* B, float* C, unsigned n, unsigned offset) {
  float sum[U];
  unsigned index[U];
#pragma unroll
  for (unsigned u = 0; u < U; ++u) {
    index[u] = unrolled_index(blockIdx.x, blockDim.x, threadIdx.x, U, u);
    const unsigned k = read_segment_index(index[u], offset);
    sum[u] = k < n ? A[k] + B[k] : 0.f;
  }
#pragma unroll
  for (unsigned u = 0; u < U; ++u)
    if (read_segment_index(index[u], offset) < n) C[index[u]] = sum[u];
}

/// C[i] = A[pattern_load_index(i)]: one load pattern of 003's figures per launch; stores
/// stay coalesced, so the loads alone differ. n: a multiple of 32.
__global__ void readPattern(const float* A, float* C, unsigned n, unsigned pattern) {
  const unsigned i = thread_index(blockIdx.x, blockDim.x, threadIdx.x);
  if (i < n) C[i] = A[pattern_load_index(pattern, i, n)];
}

/// The same through __ldcg (L2 only), like -Xptxas -dlcm=cg.
__global__ void readPatternUncached(const float* A, float* C, unsigned n, unsigned pattern) {
  const unsigned i = thread_index(blockIdx.x, blockDim.x, threadIdx.x);
  if (i < n) C[i] = __ldcg(&A[pattern_load_index(pattern, i, n)]);
}

/// C[pattern_store_index(i)] = A[i] for the lanes that store: `warps` windows of 48 floats.
__global__ void writePattern(const float* A, float* C, unsigned warps, unsigned pattern) {
  const unsigned i = thread_index(blockIdx.x, blockDim.x, threadIdx.x);
  if (i / 32 >= warps) return;
  const unsigned k = pattern_store_index(pattern, i);
  if (k != kNoStore) C[k] = A[i];
}

}  // namespace labbook::kernels
