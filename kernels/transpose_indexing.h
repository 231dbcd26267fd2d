#pragma once
/// @file
/// Index arithmetic of lab 5's transpose kernels (transpose.cuh), after
/// 003_c67e0f909fb510d6.txt (« Variantes du noyau pour l'opération de transposition », the
/// diagonal mapping of « Réorganisation diagonale des blocs ») and the book it follows. The
/// warp model (kernels/transpose_model.cpp) replays these same functions on the host.
/// Matrices are row-major: `in` has ny rows of nx floats, `out` nx rows of ny.
#include "host_device.h"

namespace labbook::kernels {

/// A thread's element: column ix and row iy of `in`.
struct Element {
  unsigned ix, iy;
};

/// The plain mapping: block (bx, by), thread (tx, ty).
LABBOOK_HOST_DEVICE inline Element element_of(unsigned bx, unsigned by, unsigned bdx, unsigned bdy, unsigned tx, unsigned ty) {
  return {bx * bdx + tx, by * bdy + ty};
}

/// Unroll4: each block covers 4 blocks' width; the thread's first of 4 columns, blockDim.x apart.
LABBOOK_HOST_DEVICE inline Element unroll4_element_of(unsigned bx, unsigned by, unsigned bdx, unsigned bdy, unsigned tx,
                                                      unsigned ty) {
  return {bx * bdx * 4 + tx, by * bdy + ty};
}

/// Diagonal block order: block (bx, by) of a gx x gy grid works on the tile the diagonal
/// mapping assigns. For a square grid this is the source's formula, block_y = bx and
/// block_x = (bx + by) % gx; for other grids (the thin blocks) it is the general form of
/// NVIDIA's transpose paper (Ruetsch & Micikevicius), which covers every tile once.
struct Tile {
  unsigned x, y;
};
LABBOOK_HOST_DEVICE inline Tile diagonal_tile(unsigned bx, unsigned by, unsigned gx, unsigned gy) {
  const unsigned bid = bx + gx * by;
  const unsigned y = bid % gy;
  return {(bid / gy + y) % gx, y};
}

/// Positions: row-major index of (column, row) in a matrix `width` floats wide.
LABBOOK_HOST_DEVICE inline unsigned long long at(unsigned column, unsigned row, unsigned width) {
  return static_cast<unsigned long long>(row) * width + column;
}

/// The padded shared tile of the tiled transpose: 32 x 32 floats in rows of 33.
inline constexpr unsigned kTransposeTile = 32, kTransposeTileRows = 8, kTransposeTilePitch = 33;

}  // namespace labbook::kernels
