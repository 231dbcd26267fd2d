#pragma once
/// @file
/// Index arithmetic of lab 3's kernels (shared_memory.cuh), shared with the host: the warp
/// model (kernels/shared_memory_model.cpp) replays these same functions to find the bank
/// each lane's shared-memory access falls in.
#include "host_device.h"

namespace labbook::kernels {

/// Threads per block of the shared-memory experiments (four warps).
inline constexpr unsigned kSharedThreads = 128;

/// 000, V-A: thread tid reads element s * tid of a shared array (words, chars, ...).
LABBOOK_HOST_DEVICE inline unsigned strided_element(unsigned tid, unsigned s) { return s * tid; }

/// reverseArray_multiblock (002): block b of `blocks` writes its elements to block
/// blocks - 1 - b of the output, thread t reading element blockDim - 1 - t of its block.
LABBOOK_HOST_DEVICE inline unsigned reversed_block(unsigned block, unsigned blocks) { return blocks - 1 - block; }
LABBOOK_HOST_DEVICE inline unsigned reversed_thread(unsigned thread, unsigned block_dim) { return block_dim - 1 - thread; }

/// The 32 x 32 tile: element (row, col) of a tile whose rows are `pitch` words apart
/// (32: unpadded; 33: padded, so a column spans every bank).
inline constexpr unsigned kTile = 32;
inline constexpr unsigned kTileRows = 8;   ///< threadIdx.y runs over 8 rows; each thread does 4
LABBOOK_HOST_DEVICE inline unsigned tile_word(unsigned row, unsigned col, unsigned pitch) { return row * pitch + col; }

}  // namespace labbook::kernels
