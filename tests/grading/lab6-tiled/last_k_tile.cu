// Planted submission, wrong by one step: guards on m and n (zeros outside A's rows and B's
// columns, C written only inside), but k / 16 steps along k instead of (k + 15) / 16, so the
// last, cut tile along k is never added. Right whenever k is a multiple of 16, as on the timed
// product; wrong on the first call, where k = 777 = 48 x 16 + 9 leaves nine terms out.
#include <cuda_runtime.h>

constexpr unsigned kTile = 16;

__global__ void matmul_tiled(const float* A, const float* B, float* C, unsigned m, unsigned k, unsigned n) {
  __shared__ float As[kTile][kTile];
  __shared__ float Bs[kTile][kTile];
  const unsigned tx = threadIdx.x, ty = threadIdx.y;
  const unsigned row = blockIdx.y * kTile + ty, col = blockIdx.x * kTile + tx;
  float sum = 0;
  for (unsigned t = 0; t < k / kTile; ++t) {   // should be (k + kTile - 1) / kTile
    As[ty][tx] = row < m ? A[static_cast<size_t>(row) * k + t * kTile + tx] : 0.0f;
    Bs[ty][tx] = col < n ? B[static_cast<size_t>(t * kTile + ty) * n + col] : 0.0f;
    __syncthreads();
#pragma unroll
    for (unsigned e = 0; e < kTile; ++e) sum += As[ty][e] * Bs[e][tx];
    __syncthreads();
  }
  if (row < m && col < n) C[static_cast<size_t>(row) * n + col] = sum;
}
