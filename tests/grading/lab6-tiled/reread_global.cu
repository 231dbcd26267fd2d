// Planted submission, the lab's cheat: a tile that re-reads global memory. It copies both
// 16 x 16 tiles into shared memory and synchronises, as a tiled kernel does, then takes the
// step's 16 products from A and B in global memory anyway: right, with the tiles' loads on top
// of the classic kernel's (150,994,944 sectors on the timed product, nine times the tile's).
// No points for loads. (The tiles are volatile so that the compiler keeps them: without a
// read of them it would drop them, and this would be the classic kernel with barriers.)
#include <cuda_runtime.h>

constexpr unsigned kTile = 16;

__global__ void matmul_tiled(const float* A, const float* B, float* C, unsigned m, unsigned k, unsigned n) {
  __shared__ volatile float As[kTile][kTile];
  __shared__ volatile float Bs[kTile][kTile];
  const unsigned tx = threadIdx.x, ty = threadIdx.y;
  const unsigned row = blockIdx.y * kTile + ty, col = blockIdx.x * kTile + tx;
  float sum = 0;
  for (unsigned t = 0; t < (k + kTile - 1) / kTile; ++t) {
    const unsigned ka = t * kTile + tx, kb = t * kTile + ty;
    As[ty][tx] = row < m && ka < k ? A[static_cast<size_t>(row) * k + ka] : 0.0f;
    Bs[ty][tx] = kb < k && col < n ? B[static_cast<size_t>(kb) * n + col] : 0.0f;
    __syncthreads();
    if (row < m && col < n)
      for (unsigned e = 0; e < kTile && t * kTile + e < k; ++e)
        sum += A[static_cast<size_t>(row) * k + t * kTile + e] * B[static_cast<size_t>(t * kTile + e) * n + col];
    __syncthreads();
  }
  if (row < m && col < n) C[static_cast<size_t>(row) * n + col] = sum;
}
