#pragma once
// Kernels of lab 6 (matrix multiplication C = A B), as 001_a3a2ccee8305185b.txt writes them:
// the classic kernel (« implementacja klasyczna »: every thread reads a row of A and a column
// of B from global memory) and the shared-memory kernel (« implementacja z pamięcią
// dzieloną »: each block walks a row of A's tiles and a column of B's tiles through two
// BLOCK_SIZE x BLOCK_SIZE shared arrays, with GetElement, SetElement and GetSubMatrix).
// 004_12112d3317679e06.txt's mmm-ab.cu and mmm.cu are the same two kernels in double for
// square matrices. Templates on the element type: float (001) and double (004).
//
// The sources assume sides that are multiples of BLOCK_SIZE (001: « Zakładamy ... że wymiary
// macierzy są całkowitymi wielokrotnościami wartości BLOCK_SIZE »; 004: « 16 | N »). Three
// guards make any size work, and change nothing when the sides are multiples of 16: the
// classic kernel's threads outside C return at once; the shared kernel reads 0 for the part
// of an edge tile outside A or B, and writes only the elements of C that exist. Index
// arithmetic: matmul_indexing.h.
#include <cuda_runtime.h>

#include "matmul_indexing.h"

namespace labbook::kernels {

/// GetElement of 001: A(row, col), or 0 outside a cut edge tile (which then adds nothing to
/// the products).
template <typename T>
__device__ T GetElement(const Matrix<T> A, int row, int col) {
  return inside(A.height, A.width, row, col) ? A.elements[element_offset(A.stride, row, col)] : T(0);
}

/// SetElement of 001: A(row, col) = value.
template <typename T>
__device__ void SetElement(Matrix<T> A, int row, int col, T value) {
  A.elements[element_offset(A.stride, row, col)] = value;
}

/// 001's « implementacja klasyczna » (004's mmm-ab.cu): one thread per element of C, reading
/// a row of A and a column of B from global memory.
template <typename T>
__global__ void MatMulKernel(Matrix<T> A, Matrix<T> B, Matrix<T> C) {
  T Cvalue = 0;
  const int row = global_index(blockIdx.y, blockDim.y, threadIdx.y);
  const int col = global_index(blockIdx.x, blockDim.x, threadIdx.x);
  if (!inside(C.height, C.width, row, col)) return;
  for (int e = 0; e < A.width; ++e)
    Cvalue += A.elements[element_offset(A.width, row, e)] * B.elements[element_offset(B.width, e, col)];
  C.elements[element_offset(C.width, row, col)] = Cvalue;
}

/// 001's « implementacja z pamięcią dzieloną » (004's mmm.cu): block (blockCol, blockRow)
/// computes the tile Csub of C; per step m every thread copies one element of A's tile
/// (blockRow, m) and one of B's tile (m, blockCol) to shared memory, the block waits, and each
/// thread adds its row of As times its column of Bs.
template <typename T>
__global__ void MatMulSharedKernel(Matrix<T> A, Matrix<T> B, Matrix<T> C) {
  const int blockRow = blockIdx.y;
  const int blockCol = blockIdx.x;
  Matrix<T> Csub = GetSubMatrix(C, blockRow, blockCol);
  T Cvalue = 0;
  const int row = threadIdx.y;
  const int col = threadIdx.x;
  for (int m = 0; m < tiles(A.width); ++m) {
    const Matrix<T> Asub = GetSubMatrix(A, blockRow, m);
    const Matrix<T> Bsub = GetSubMatrix(B, m, blockCol);
    __shared__ T As[kBlockSize][kBlockSize];
    __shared__ T Bs[kBlockSize][kBlockSize];
    As[row][col] = GetElement(Asub, row, col);
    Bs[row][col] = GetElement(Bsub, row, col);
    __syncthreads();   // the tiles are complete
#pragma unroll
    for (int e = 0; e < kBlockSize; ++e) Cvalue += As[row][e] * Bs[e][col];
    __syncthreads();   // every thread is done with them before the next step overwrites them
  }
  if (inside(Csub.height, Csub.width, row, col)) SetElement(Csub, row, col, Cvalue);
}

}  // namespace labbook::kernels
