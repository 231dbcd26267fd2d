#pragma once
// Kernels of lab 7 (pitched, 3-D, texture and constant memory), after
// 000_e84d1941bb8bbaf9.txt (V-B to V-E), 001_a3a2ccee8305185b.txt (cudaMallocPitch,
// cudaMalloc3D) and 004_12112d3317679e06.txt (constant memory). Index arithmetic shared with
// the warp model: layouts_indexing.h.
#include <cstdint>

#include <cuda_runtime.h>

#include "layouts_indexing.h"

namespace labbook::kernels {

/// The whole 64 KiB of constant memory a program may declare (one float more and ptxas
/// refuses the file: "too much global constant data (0x10004 bytes, 0x10000 max)").
__constant__ float c_table[kConstantEntries];

/// A variable in global memory, for cudaGetSymbolAddress and cudaGetSymbolSize (000, V-D).
inline constexpr unsigned kSymbolEntries = 256;
__device__ float d_symbol[kSymbolEntries];

/// Element (x, y) of a 2-D array read through the sources' row pointer, scaled, and written
/// to the same place of `out`. Rows are `in_pitch` and `out_pitch` bytes apart: width * 4 for
/// a linear (packed) array, what cudaMallocPitch returned for a pitched one.
__global__ void rowsScale(const float* in, std::size_t in_pitch, float* out, std::size_t out_pitch, unsigned width,
                          unsigned height) {
  const unsigned x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  const float* row = reinterpret_cast<const float*>(reinterpret_cast<const char*>(in) + row_offset(y, in_pitch));
  float* out_row = reinterpret_cast<float*>(reinterpret_cast<char*>(out) + row_offset(y, out_pitch));
  out_row[x] = scaled(row[x]);
}

/// The sources' walk through a cudaMalloc3D volume, one thread per (x, y) following z:
/// slice = devPtr + z * slicePitch, row = (float*)(slice + y * pitch). extent.width is in
/// bytes (001: « liczba bajtów(!) »), so a row holds extent.width / 4 floats.
__global__ void volumeScale(cudaPitchedPtr in, cudaPitchedPtr out, cudaExtent extent) {
  const unsigned x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= extent.width / sizeof(float) || y >= extent.height) return;
  const char* in_base = static_cast<const char*>(in.ptr);
  char* out_base = static_cast<char*>(out.ptr);
  for (unsigned z = 0; z < extent.depth; ++z) {
    const float* row = reinterpret_cast<const float*>(in_base + volume_row_offset(y, z, in.pitch, extent.height));
    float* out_row = reinterpret_cast<float*>(out_base + volume_row_offset(y, z, out.pitch, extent.height));
    out_row[x] = scaled(row[x]);
  }
}

/// 5-point stencil (centre + left + right + up + down, clamped at the border) read from a
/// pitched array in global memory; a warp lies along a row or, ByColumns, along a column.
template <bool ByColumns>
__global__ void stencilGlobal(const float* in, std::size_t in_pitch, float* out, std::size_t out_pitch, unsigned width,
                              unsigned height) {
  const Pixel p = stencil_pixel(ByColumns, blockIdx.x, blockIdx.y, threadIdx.x, threadIdx.y);
  if (p.x >= width || p.y >= height) return;
  float sum = 0.0f;
  for (int point = 0; point < kStencilPoints; ++point) {
    const unsigned x = clamped(static_cast<int>(p.x) + stencil_dx(point), width);
    const unsigned y = clamped(static_cast<int>(p.y) + stencil_dy(point), height);
    sum += reinterpret_cast<const float*>(reinterpret_cast<const char*>(in) + row_offset(y, in_pitch))[x];
  }
  reinterpret_cast<float*>(reinterpret_cast<char*>(out) + row_offset(p.y, out_pitch))[p.x] = sum;
}

/// The same stencil read through a texture object (a CUDA array or pitched memory behind it,
/// point sampling, unnormalised coordinates, cudaAddressModeClamp doing the border).
template <bool ByColumns>
__global__ void stencilTexture(cudaTextureObject_t in, float* out, std::size_t out_pitch, unsigned width, unsigned height) {
  const Pixel p = stencil_pixel(ByColumns, blockIdx.x, blockIdx.y, threadIdx.x, threadIdx.y);
  if (p.x >= width || p.y >= height) return;
  float sum = 0.0f;
  for (int point = 0; point < kStencilPoints; ++point) {
    // Texel i covers [i, i + 1): its centre is i + 0.5.
    const float x = static_cast<float>(static_cast<int>(p.x) + stencil_dx(point)) + 0.5f;
    const float y = static_cast<float>(static_cast<int>(p.y) + stencil_dy(point)) + 0.5f;
    sum += tex2D<float>(in, x, y);
  }
  reinterpret_cast<float*>(reinterpret_cast<char*>(out) + row_offset(p.y, out_pitch))[p.x] = sum;
}

/// Every thread sums `rounds` entries of c_table; in each round a warp reads `distinct`
/// different words (broadcast_entry). The constant cache serves one word per pass.
__global__ void constantReads(float* out, unsigned rounds, unsigned distinct) {
  const unsigned lane = threadIdx.x % 32;
  float sum = 0.0f;
  for (unsigned r = 0; r < rounds; ++r) sum += c_table[broadcast_entry(r, lane, distinct)];
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

/// The same reads from a copy of the table in global memory.
__global__ void globalReads(const float* table, float* out, unsigned rounds, unsigned distinct) {
  const unsigned lane = threadIdx.x % 32;
  float sum = 0.0f;
  for (unsigned r = 0; r < rounds; ++r) sum += table[broadcast_entry(r, lane, distinct)];
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

}  // namespace labbook::kernels
