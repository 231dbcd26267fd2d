// Lab 6 exercise: a tiled matrix product for any size. Write the body of `matmul_tiled` and
// keep its signature. The harness launches it itself, as lab 6 launches 001's kernels: 16 x 16
// threads per block and one block per 16 x 16 tile of C, grid ((n + 15) / 16, (m + 15) / 16),
// blockIdx.x along C's columns. Write nothing that runs by itself (no main, no global objects),
// open no files, start no threads or processes.
//
// A has m rows of k floats, B has k rows of n floats, C has m rows of n floats, all row-major
// in device memory: C[i * n + j] = sum over e < k of A[i * k + e] * B[e * n + j], for every
// i < m, j < n. None of m, k, n need be a multiple of 16.
#include <cuda_runtime.h>

__global__ void matmul_tiled(const float* A, const float* B, float* C, unsigned m, unsigned k, unsigned n) {
  // Your code here: step along k one 16 x 16 tile of A and one of B at a time, each thread
  // loading one element of each into shared memory (0 where the tile runs past the matrix),
  // synchronise, add the tile's 16 products, synchronise again before the next step; write
  // C[i * n + j] only where it exists.
}
