#pragma once
/// @file
/// Index arithmetic of lab 6's matrix products (matmul.cuh), after 001_a3a2ccee8305185b.txt
/// (« Mnożenie macierzy – implementacja klasyczna » and « – implementacja z pamięcią
/// dzieloną ») and 004_12112d3317679e06.txt (mmm-ab.cu, mmm.cu). The warp model
/// (kernels/matmul_model.cpp) replays these same functions on the host.
///
/// A Matrix is stored by rows: M(row, col) = *(M.elements + row * M.stride + col). The sources
/// assume sides that are multiples of BLOCK_SIZE; here an edge tile is cut to what remains
/// of the matrix, so that any size works (see GetSubMatrix).
#include "host_device.h"

namespace labbook::kernels {

/// BLOCK_SIZE of both sources: 16 x 16 threads per block, 16 x 16 tiles in shared memory.
inline constexpr int kBlockSize = 16;

/// The sources' Matrix (001's second version, with a stride; the first has none and uses
/// width, which is the same for a whole matrix).
template <typename T>
struct Matrix {
  int width;
  int height;
  int stride;
  T* elements;
};

/// Offset of M(row, col) from M.elements for a matrix `stride` elements apart row to row.
LABBOOK_HOST_DEVICE inline long long element_offset(int stride, int row, int col) {
  return static_cast<long long>(row) * stride + col;
}

/// Row or column of a thread's element of C: block index x block side + thread index.
LABBOOK_HOST_DEVICE inline int global_index(int block, int block_side, int thread) { return block * block_side + thread; }

/// How many BLOCK_SIZE tiles cover `size` elements (the last one may be cut).
LABBOOK_HOST_DEVICE inline int tiles(int size) { return (size + kBlockSize - 1) / kBlockSize; }

/// Offset of tile (row, col) — `col` tiles right and `row` tiles down — from the matrix's
/// first element.
LABBOOK_HOST_DEVICE inline long long tile_offset(int stride, int row, int col) {
  return element_offset(stride, kBlockSize * row, kBlockSize * col);
}

/// Side of the tile at `index` along a side of `size` elements: BLOCK_SIZE, or what is left
/// at the edge.
LABBOOK_HOST_DEVICE inline int tile_side(int size, int index) {
  const int left = size - kBlockSize * index;
  return left < kBlockSize ? left : kBlockSize;
}

/// GetSubMatrix of 001: the BLOCK_SIZE x BLOCK_SIZE tile `col` tiles right and `row` tiles
/// down of A's top-left element, sharing A's stride. The source's tile is always
/// BLOCK_SIZE x BLOCK_SIZE; this one is cut at A's right and bottom edges.
template <typename T>
LABBOOK_HOST_DEVICE inline Matrix<T> GetSubMatrix(Matrix<T> A, int row, int col) {
  Matrix<T> Asub;
  Asub.width = tile_side(A.width, col);
  Asub.height = tile_side(A.height, row);
  Asub.stride = A.stride;
  Asub.elements = A.elements + tile_offset(A.stride, row, col);
  return Asub;
}

/// True when (row, col) lies inside a (sub)matrix of `height` x `width`.
LABBOOK_HOST_DEVICE inline bool inside(int height, int width, int row, int col) { return row < height && col < width; }

}  // namespace labbook::kernels
