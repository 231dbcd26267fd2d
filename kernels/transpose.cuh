#pragma once
// Kernels of lab 5 (matrix transpose), after 003_c67e0f909fb510d6.txt, « Variantes du
// noyau pour l'opération de transposition » and the following sections: copies by rows and by
// columns (the bounds), naive transposes reading rows or columns, the same unrolled 4 times,
// with diagonal block order, and a shared-memory tiled transpose with a padded tile (today's
// practice; not in the source). Every load goes through load<kL1>(): L1-cached (the default,
// -Xptxas -dlcm=ca) or L2 only (__ldcg, like -dlcm=cg). Index arithmetic:
// transpose_indexing.h. Matrices are square here (nx = ny), as the source's kernels assume.
#include <cuda_runtime.h>

#include "transpose_indexing.h"

namespace labbook::kernels {

template <bool kL1>
__device__ __forceinline__ float load(const float* p) {
  if constexpr (kL1) return *p;
  else return __ldcg(p);
}

template <bool kL1>
__global__ void copyRow(const float* in, float* out, unsigned nx, unsigned ny) {
  const Element e = element_of(blockIdx.x, blockIdx.y, blockDim.x, blockDim.y, threadIdx.x, threadIdx.y);
  if (e.ix < nx && e.iy < ny) out[at(e.ix, e.iy, nx)] = load<kL1>(&in[at(e.ix, e.iy, nx)]);
}

template <bool kL1>
__global__ void copyCol(const float* in, float* out, unsigned nx, unsigned ny) {
  const Element e = element_of(blockIdx.x, blockIdx.y, blockDim.x, blockDim.y, threadIdx.x, threadIdx.y);
  if (e.ix < nx && e.iy < ny) out[at(e.iy, e.ix, ny)] = load<kL1>(&in[at(e.iy, e.ix, ny)]);
}

/// Reads rows, writes columns.
template <bool kL1>
__global__ void transposeNaiveRow(const float* in, float* out, unsigned nx, unsigned ny) {
  const Element e = element_of(blockIdx.x, blockIdx.y, blockDim.x, blockDim.y, threadIdx.x, threadIdx.y);
  if (e.ix < nx && e.iy < ny) out[at(e.iy, e.ix, ny)] = load<kL1>(&in[at(e.ix, e.iy, nx)]);
}

/// Reads columns, writes rows.
template <bool kL1>
__global__ void transposeNaiveCol(const float* in, float* out, unsigned nx, unsigned ny) {
  const Element e = element_of(blockIdx.x, blockIdx.y, blockDim.x, blockDim.y, threadIdx.x, threadIdx.y);
  if (e.ix < nx && e.iy < ny) out[at(e.ix, e.iy, nx)] = load<kL1>(&in[at(e.iy, e.ix, ny)]);
}

/// NaiveRow with 4 elements per thread, blockDim.x apart (grid.x is a quarter as wide).
template <bool kL1>
__global__ void transposeUnroll4Row(const float* in, float* out, unsigned nx, unsigned ny) {
  const Element e = unroll4_element_of(blockIdx.x, blockIdx.y, blockDim.x, blockDim.y, threadIdx.x, threadIdx.y);
  if (e.ix + 3 * blockDim.x < nx && e.iy < ny) {
#pragma unroll
    for (unsigned k = 0; k < 4; ++k) {
      const unsigned x = e.ix + k * blockDim.x;
      out[at(e.iy, x, ny)] = load<kL1>(&in[at(x, e.iy, nx)]);
    }
  }
}

/// NaiveCol with 4 elements per thread.
template <bool kL1>
__global__ void transposeUnroll4Col(const float* in, float* out, unsigned nx, unsigned ny) {
  const Element e = unroll4_element_of(blockIdx.x, blockIdx.y, blockDim.x, blockDim.y, threadIdx.x, threadIdx.y);
  if (e.ix + 3 * blockDim.x < nx && e.iy < ny) {
#pragma unroll
    for (unsigned k = 0; k < 4; ++k) {
      const unsigned x = e.ix + k * blockDim.x;
      out[at(x, e.iy, nx)] = load<kL1>(&in[at(e.iy, x, ny)]);
    }
  }
}

/// NaiveRow with blocks in diagonal order.
template <bool kL1>
__global__ void transposeDiagonalRow(const float* in, float* out, unsigned nx, unsigned ny) {
  const Tile t = diagonal_tile(blockIdx.x, blockIdx.y, gridDim.x, gridDim.y);
  const Element e = element_of(t.x, t.y, blockDim.x, blockDim.y, threadIdx.x, threadIdx.y);
  if (e.ix < nx && e.iy < ny) out[at(e.iy, e.ix, ny)] = load<kL1>(&in[at(e.ix, e.iy, nx)]);
}

/// NaiveCol with blocks in diagonal order.
template <bool kL1>
__global__ void transposeDiagonalCol(const float* in, float* out, unsigned nx, unsigned ny) {
  const Tile t = diagonal_tile(blockIdx.x, blockIdx.y, gridDim.x, gridDim.y);
  const Element e = element_of(t.x, t.y, blockDim.x, blockDim.y, threadIdx.x, threadIdx.y);
  if (e.ix < nx && e.iy < ny) out[at(e.ix, e.iy, nx)] = load<kL1>(&in[at(e.iy, e.ix, ny)]);
}

/// Through a 32 x 32 shared tile padded to 33 floats a row: rows read, rows written, the
/// transposition done in shared memory (32 x 8 threads, 4 rows each).
template <bool kL1>
__global__ void transposeTiled(const float* in, float* out, unsigned nx, unsigned ny) {
  __shared__ float tile[kTransposeTile * kTransposeTilePitch];
  const unsigned x = blockIdx.x * kTransposeTile + threadIdx.x, y = blockIdx.y * kTransposeTile + threadIdx.y;
#pragma unroll
  for (unsigned j = 0; j < kTransposeTile; j += kTransposeTileRows)
    if (x < nx && y + j < ny) tile[(threadIdx.y + j) * kTransposeTilePitch + threadIdx.x] = load<kL1>(&in[at(x, y + j, nx)]);
  __syncthreads();
  const unsigned ox = blockIdx.y * kTransposeTile + threadIdx.x, oy = blockIdx.x * kTransposeTile + threadIdx.y;
#pragma unroll
  for (unsigned j = 0; j < kTransposeTile; j += kTransposeTileRows)
    if (ox < ny && oy + j < nx) out[at(ox, oy + j, ny)] = tile[threadIdx.x * kTransposeTilePitch + threadIdx.y + j];
}

}  // namespace labbook::kernels
