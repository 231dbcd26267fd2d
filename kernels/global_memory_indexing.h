#pragma once
/// @file
/// Index arithmetic of lab 4's kernels (global_memory.cuh), shared with the host: the
/// warp-level model (warp_model/) calls these same functions, compiled by the host
/// compiler, to replay exactly the addresses each warp of a kernel touches.
#include "host_device.h"

namespace labbook::kernels {

/// Linear thread index in a 1-D grid.
LABBOOK_HOST_DEVICE inline unsigned thread_index(unsigned block, unsigned block_dim, unsigned thread) {
  return block * block_dim + thread;
}

/// readSegment: thread i reads element i + offset of A and B.
LABBOOK_HOST_DEVICE inline unsigned read_segment_index(unsigned i, unsigned offset) { return i + offset; }

/// writeSegment: thread i writes element i + offset of C.
LABBOOK_HOST_DEVICE inline unsigned write_segment_index(unsigned i, unsigned offset) { return i + offset; }

/// readSegmentUnroll<U>: thread t of block b handles U elements, blockDim apart.
LABBOOK_HOST_DEVICE inline unsigned unrolled_index(unsigned block, unsigned block_dim, unsigned thread,
                                                   unsigned unroll, unsigned u) {
  return block * block_dim * unroll + u * block_dim + thread;
}

/// Where the lanes of a warp load from, after 003's figures of cached and uncached loads
/// (4-10/4-15, 4-12, 4-13/4-18). Thread i is lane i % 32 of warp i / 32.
enum LoadPattern : unsigned {
  kPermutedInLine = 0,   ///< 32 distinct words of the warp's own 128-byte line, shuffled
  kSameAddress = 1,      ///< every lane reads the first word of the warp's line
  kScattered = 2,        ///< lane l reads word w + l * n/32: 32 lines far apart
};

/// readPattern: the element thread i loads, for an array of n floats (n a multiple of 32,
/// i < n). Scattered reads every element exactly once over the launch, like the others
/// except kSameAddress, so the arrays' DRAM footprint stays the same.
LABBOOK_HOST_DEVICE inline unsigned pattern_load_index(unsigned pattern, unsigned i, unsigned n) {
  const unsigned warp = i / 32, lane = i % 32;
  if (pattern == kPermutedInLine) return warp * 32 + ((lane * 13 + 7) & 31);   // 13 is odd: a bijection
  if (pattern == kSameAddress) return warp * 32;
  return lane * (n / 32) + warp;
}

/// Where the lanes of a warp store, after 003's figures 4-20 and 4-21: each warp owns a
/// window of 48 floats (192 bytes, 64-byte aligned).
enum StorePattern : unsigned {
  kThreeSegments = 0,   ///< 24 lanes on segments 0, 2 and 5 of the window (Fig. 4-20)
  kTwoSegments = 1,     ///< 16 lanes on the window's first 64 bytes (Fig. 4-21)
};
constexpr unsigned kStoreWindow = 48;             ///< floats per warp
constexpr unsigned kNoStore = 0xFFFFFFFFu;        ///< an idle lane's index

/// writePattern: the element thread i stores, or kNoStore for an idle lane.
LABBOOK_HOST_DEVICE inline unsigned pattern_store_index(unsigned pattern, unsigned i) {
  const unsigned warp = i / 32, lane = i % 32, window = warp * kStoreWindow;
  if (pattern == kThreeSegments) {
    if (lane >= 24) return kNoStore;
    const unsigned segment = lane < 8 ? 0 : lane < 16 ? 2 : 5;   // 8 floats = one 32-byte segment
    return window + segment * 8 + lane % 8;
  }
  return lane < 16 ? window + lane : kNoStore;
}

}  // namespace labbook::kernels
