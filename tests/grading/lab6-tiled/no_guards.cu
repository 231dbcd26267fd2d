// Planted submission, wrong: the sources' shared-memory kernel as 001 writes it, for sides
// that are multiples of 16 only: k / 16 steps (the last, cut tile along k is never added),
// tiles loaded and C written with no guard. Wrong from the first call (1000 x 777 x 555):
// nine of each element's 777 terms are missing, and the edge blocks read past A and B and
// write past C's rows (whether that ends in wrong values or an illegal address, the first
// call fails).
#include <cuda_runtime.h>

#define BLOCK_SIZE 16

__global__ void matmul_tiled(const float* A, const float* B, float* C, unsigned m, unsigned k, unsigned n) {
  const int row = threadIdx.y, col = threadIdx.x;
  const int blockRow = blockIdx.y, blockCol = blockIdx.x;
  float Cvalue = 0;
  for (int t = 0; t < static_cast<int>(k / BLOCK_SIZE); ++t) {
    __shared__ float As[BLOCK_SIZE][BLOCK_SIZE];
    __shared__ float Bs[BLOCK_SIZE][BLOCK_SIZE];
    As[row][col] = A[(blockRow * BLOCK_SIZE + row) * k + t * BLOCK_SIZE + col];
    Bs[row][col] = B[(t * BLOCK_SIZE + row) * n + blockCol * BLOCK_SIZE + col];
    __syncthreads();
    for (int e = 0; e < BLOCK_SIZE; ++e) Cvalue += As[row][e] * Bs[e][col];
    __syncthreads();
  }
  C[(blockRow * BLOCK_SIZE + row) * n + blockCol * BLOCK_SIZE + col] = Cvalue;
}
