// Planted submission: right, but no tile: lab 6's classic kernel (001's « implementacja
// klasyczna ») with its guard. Every multiply-add loads a word of A and one of B from global
// memory: 134,217,728 load sectors on the timed product, eight times the tile's, so no points
// for loads; L1 catches most of them, so it is slower than the tiled kernel, not useless.
#include <cuda_runtime.h>

__global__ void matmul_tiled(const float* A, const float* B, float* C, unsigned m, unsigned k, unsigned n) {
  const unsigned row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= m || col >= n) return;
  float sum = 0;
  for (unsigned e = 0; e < k; ++e) sum += A[static_cast<size_t>(row) * k + e] * B[static_cast<size_t>(e) * n + col];
  C[static_cast<size_t>(row) * n + col] = sum;
}
