// Planted submission, wrong by precision: a right tiled kernel that keeps its tiles in half
// precision (half the shared memory). Each input loses 13 of its 24 bits, as tensor cores'
// tf32 inputs do: elements are off by 1e-5 to 1e-4 of the sum of their terms' magnitudes, past
// the rubric's tolerance, which float rounding in any order of the additions stays far below.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

constexpr unsigned kTile = 16;

__global__ void matmul_tiled(const float* A, const float* B, float* C, unsigned m, unsigned k, unsigned n) {
  __shared__ __half As[kTile][kTile];
  __shared__ __half Bs[kTile][kTile];
  const unsigned tx = threadIdx.x, ty = threadIdx.y;
  const unsigned row = blockIdx.y * kTile + ty, col = blockIdx.x * kTile + tx;
  float sum = 0;
  for (unsigned t = 0; t < (k + kTile - 1) / kTile; ++t) {
    const unsigned ka = t * kTile + tx, kb = t * kTile + ty;
    As[ty][tx] = __float2half(row < m && ka < k ? A[static_cast<size_t>(row) * k + ka] : 0.0f);
    Bs[ty][tx] = __float2half(kb < k && col < n ? B[static_cast<size_t>(kb) * n + col] : 0.0f);
    __syncthreads();
#pragma unroll
    for (unsigned e = 0; e < kTile; ++e) sum += __half2float(As[ty][e]) * __half2float(Bs[e][tx]);
    __syncthreads();
  }
  if (row < m && col < n) C[static_cast<size_t>(row) * n + col] = sum;
}
