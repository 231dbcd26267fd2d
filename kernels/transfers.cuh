#pragma once
// Kernels of lab 2 (host–device transfers). The names are the sources': `mmm` is the
// double-precision matrix product of 004_12112d3317679e06.txt (16 x 16 shared-memory tiles),
// `sumArraysZeroCopy` and `sumMatrixGPU` are the vector and matrix additions of
// 003_c67e0f909fb510d6.txt (zero-copy memory, unified memory). The lab measures where their
// operands live, not the kernels themselves, so they stay as plain as the sources'.
#include <cuda_runtime.h>

namespace labbook::kernels {

/// Tile edge of `mmm`: 16 x 16 = 256 threads per block, as in the source.
constexpr unsigned kMmmTile = 16;

/// C = A * B for n x n row-major matrices, n a multiple of kMmmTile. Each block walks a row
/// of tiles of A and a column of tiles of B through shared memory.
__global__ void mmm(const double* A, const double* B, double* C, unsigned n) {
  __shared__ double a_tile[kMmmTile][kMmmTile];
  __shared__ double b_tile[kMmmTile][kMmmTile];
  const unsigned row = blockIdx.y * kMmmTile + threadIdx.y;
  const unsigned col = blockIdx.x * kMmmTile + threadIdx.x;
  double sum = 0;
  for (unsigned tile = 0; tile < n / kMmmTile; ++tile) {
    a_tile[threadIdx.y][threadIdx.x] = A[static_cast<size_t>(row) * n + tile * kMmmTile + threadIdx.x];
    b_tile[threadIdx.y][threadIdx.x] = B[static_cast<size_t>(tile * kMmmTile + threadIdx.y) * n + col];
    __syncthreads();
#pragma unroll
    for (unsigned k = 0; k < kMmmTile; ++k) sum += a_tile[threadIdx.y][k] * b_tile[k][threadIdx.x];
    __syncthreads();
  }
  C[static_cast<size_t>(row) * n + col] = sum;
}

/// C[i] = A[i] + B[i]. The same body serves device memory and mapped (zero-copy) host
/// memory: only the pointers differ.
__global__ void sumArraysZeroCopy(const float* A, const float* B, float* C, size_t n) {
  const size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) C[i] = A[i] + B[i];
}

/// C = A + B for an nx x ny matrix stored row by row; one thread per element of a 2D grid.
__global__ void sumMatrixGPU(const float* A, const float* B, float* C, unsigned nx, unsigned ny) {
  const unsigned ix = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned iy = blockIdx.y * blockDim.y + threadIdx.y;
  if (ix < nx && iy < ny) {
    const size_t i = static_cast<size_t>(iy) * nx + ix;
    C[i] = A[i] + B[i];
  }
}

}  // namespace labbook::kernels
