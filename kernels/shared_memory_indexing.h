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

/// 000, V-A, a double split into two int arrays: how many times each thread reads its own
/// element, in the double kernel and in the hi/lo kernel alike, so that the shared loads and
/// not the launch set the kernel's time.
inline constexpr unsigned kSplitReads = 256;

/// 000, V-A, each bank's bandwidth: the throughput kernel. Blocks of 256 threads; each thread
/// makes kBandwidthRounds x kBandwidthLoadsPerRound independent 4-byte loads of a
/// kBandwidthWords-word array (32 KiB: room for stride 32).
inline constexpr unsigned kBandwidthThreads = 256;
inline constexpr unsigned kBandwidthLoadsPerRound = 32;
inline constexpr unsigned kBandwidthRounds = 1024;
inline constexpr unsigned kBandwidthWords = 32 * kBandwidthThreads;
/// Load j of thread tid reads word s * tid + j: at s = 1 a warp reads 32 consecutive words (32
/// banks, one wavefront), at s = 32 all 32 lanes read different words of one bank. Stays
/// inside the array for s <= 32.
LABBOOK_HOST_DEVICE inline unsigned bandwidth_word(unsigned tid, unsigned j, unsigned s) { return s * tid + j; }
/// Banks of this GPU and bytes per bank (every compute capability since 2.0: 32 of 4 bytes;
/// 000's GPUs had 16), to turn the throughput kernel's bytes into bytes per bank.
inline constexpr unsigned kBanks = 32;
inline constexpr unsigned kBankBytes = 4;

/// 002, two arrays carved from one dynamic shared buffer: the first holds kFirstElements
/// elements (an odd count, so 2-byte elements end on no multiple of 8), the second one element
/// per thread and starts at second_array_offset(): the first array's bytes rounded up to the
/// second's alignment. For two arrays of one type this is 002's `b = &a[aSize]`.
inline constexpr unsigned kFirstElements = 125;
LABBOOK_HOST_DEVICE inline unsigned second_array_offset(unsigned first_bytes, unsigned alignment) {
  return (first_bytes + alignment - 1) / alignment * alignment;
}
/// Thread t reads the first array backwards (its last element, next to the second array, too).
LABBOOK_HOST_DEVICE inline unsigned mirrored_element(unsigned tid, unsigned count) { return count - 1 - tid % count; }

}  // namespace labbook::kernels
