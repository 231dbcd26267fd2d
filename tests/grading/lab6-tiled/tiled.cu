// Planted submission: the expected answer. 16 x 16 tiles of A and B in shared memory, zeros
// where a tile runs past its matrix (so every thread runs every step and the zeros add
// nothing), the last tile along k cut the same way, C written only where it exists: each
// word a block loads serves 16 multiply-adds, 16,777,216 load sectors on the timed product.
#include <cuda_runtime.h>

constexpr unsigned kTile = 16;

__global__ void matmul_tiled(const float* A, const float* B, float* C, unsigned m, unsigned k, unsigned n) {
  __shared__ float As[kTile][kTile];
  __shared__ float Bs[kTile][kTile];
  const unsigned tx = threadIdx.x, ty = threadIdx.y;
  const unsigned row = blockIdx.y * kTile + ty, col = blockIdx.x * kTile + tx;
  float sum = 0;
  for (unsigned t = 0; t < (k + kTile - 1) / kTile; ++t) {
    const unsigned ka = t * kTile + tx, kb = t * kTile + ty;   // A's column, B's row in this step
    As[ty][tx] = row < m && ka < k ? A[static_cast<size_t>(row) * k + ka] : 0.0f;
    Bs[ty][tx] = kb < k && col < n ? B[static_cast<size_t>(kb) * n + col] : 0.0f;
    __syncthreads();
#pragma unroll
    for (unsigned e = 0; e < kTile; ++e) sum += As[ty][e] * Bs[e][tx];
    __syncthreads();
  }
  if (row < m && col < n) C[static_cast<size_t>(row) * n + col] = sum;
}
