#pragma once
/// @file
/// Index arithmetic of lab 7's kernels (layouts.cuh): rows of a pitched 2-D array, slices of
/// a cudaMalloc3D volume (the `slicePitch = pitch * extent.height` of 000_e84d1941bb8bbaf9.txt,
/// V-C, and 001_a3a2ccee8305185b.txt), a 5-point stencil's pixels and neighbours, and the
/// constant-memory entries a warp reads. The warp model (kernels/layouts_model.cpp) replays
/// these same functions on the host.
#include <cstdint>

#include "host_device.h"

namespace labbook::kernels {

/// Threads per block of the 2-D kernels: a warp is 32 threads of one row (or, read by
/// columns, of one column), 8 warps per block.
inline constexpr unsigned kLayoutBlockX = 32, kLayoutBlockY = 8;

/// Byte offset of row `y` of a 2-D array whose rows are `pitch` bytes apart: the sources'
/// `(float*)((char*)devPtr + r * pitch)`. A linear (packed) array has pitch = width * 4.
LABBOOK_HOST_DEVICE inline std::uint64_t row_offset(unsigned y, std::uint64_t pitch) { return y * pitch; }

/// Bytes from one z slice of a cudaMalloc3D volume to the next: the sources' slicePitch.
LABBOOK_HOST_DEVICE inline std::uint64_t slice_pitch(std::uint64_t pitch, std::uint64_t height) { return pitch * height; }

/// Byte offset of row (y, z) of a volume: `slice + y * pitch` with `slice = devPtr + z * slicePitch`.
LABBOOK_HOST_DEVICE inline std::uint64_t volume_row_offset(unsigned y, unsigned z, std::uint64_t pitch, std::uint64_t height) {
  return z * slice_pitch(pitch, height) + y * pitch;
}

/// What the row and volume kernels write for an element they read (exact in float: the
/// multiplication by 2 only changes the exponent).
LABBOOK_HOST_DEVICE inline float scaled(float v) { return v * 2.0f + 1.0f; }

/// A pixel of the stencil: column x, row y.
struct Pixel {
  unsigned x, y;
};

/// The pixel of thread (tx, ty) in block (bx, by). By rows, a warp's 32 lanes lie along a row
/// (consecutive x); by columns, along a column (consecutive y), so each lane reads another row.
LABBOOK_HOST_DEVICE inline Pixel stencil_pixel(bool by_columns, unsigned bx, unsigned by, unsigned tx, unsigned ty) {
  if (by_columns) return {bx * kLayoutBlockY + ty, by * kLayoutBlockX + tx};
  return {bx * kLayoutBlockX + tx, by * kLayoutBlockY + ty};
}

/// The grid of a stencil launch over a width x height image (blocks of kLayoutBlockX x kLayoutBlockY).
LABBOOK_HOST_DEVICE inline Pixel stencil_grid(bool by_columns, unsigned width, unsigned height) {
  if (by_columns) return {(width + kLayoutBlockY - 1) / kLayoutBlockY, (height + kLayoutBlockX - 1) / kLayoutBlockX};
  return {(width + kLayoutBlockX - 1) / kLayoutBlockX, (height + kLayoutBlockY - 1) / kLayoutBlockY};
}

/// The 5-point stencil's neighbours, in the order both the kernels and the host add them:
/// centre, left, right, up, down.
inline constexpr int kStencilPoints = 5;
LABBOOK_HOST_DEVICE inline int stencil_dx(int point) { return point == 1 ? -1 : point == 2 ? 1 : 0; }
LABBOOK_HOST_DEVICE inline int stencil_dy(int point) { return point == 3 ? -1 : point == 4 ? 1 : 0; }

/// Coordinate `v` clamped into [0, n): what cudaAddressModeClamp does at the image's border.
LABBOOK_HOST_DEVICE inline unsigned clamped(int v, unsigned n) {
  return v < 0 ? 0u : static_cast<unsigned>(v) >= n ? n - 1 : static_cast<unsigned>(v);
}

/// 64 KiB of floats: the whole constant space the sources (and this GPU) give a program.
inline constexpr unsigned kConstantEntries = 16384;

/// The broadcast reads cycle through the table's first 1 KiB: well inside the constant cache,
/// whose step lab 1's broadcast sweep finds between 2 and 4 KiB on an H100, so that a pass
/// costs a cache hit and the time shows the passes, not misses to L2.
inline constexpr unsigned kBroadcastWindow = 256;

/// The entry lane `lane` reads in round `r` when a warp reads `distinct` different words at
/// once: lanes l and l + distinct share a word, and every round moves to other words.
LABBOOK_HOST_DEVICE inline unsigned broadcast_entry(unsigned r, unsigned lane, unsigned distinct) {
  return (r * 32u + lane % distinct) % kBroadcastWindow;
}

/// The table's entry e: small integers, so that every sum of them is exact in float.
LABBOOK_HOST_DEVICE inline float table_entry_value(unsigned e) { return static_cast<float>(e * 7u % 16u); }

}  // namespace labbook::kernels
