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

}  // namespace labbook::kernels
