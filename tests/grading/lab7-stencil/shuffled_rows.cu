// Planted submission, honest: rows as in rows.cu, but each thread reads only its own pixel of
// the row and takes its left and right neighbours from the lanes beside it (warp shuffles);
// a warp's two end lanes read theirs. Built for sm_70 and older targets, ptxas adds a weak
// __cuda_sm70_shflsync helper to the object: this must build and keep full marks when labbook
// builds for the GPU that runs it.
#include <cstddef>

#include <cuda_runtime.h>

namespace {

__device__ inline const float* row_of(const float* image, std::size_t pitch, unsigned y) {
  return reinterpret_cast<const float*>(reinterpret_cast<const char*>(image) + y * pitch);
}

}  // namespace

__global__ void stencil5(const float* in, float* out, std::size_t pitch, unsigned width, unsigned height, float c0,
                         float c1) {
  const unsigned x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  // Every lane takes part in the shuffles: lanes past the image read a clamped pixel, write none.
  const unsigned cx = x < width ? x : width - 1, cy = y < height ? y : height - 1;
  const float* row = row_of(in, pitch, cy);
  const float centre = row[cx];
  const unsigned lane = threadIdx.x % 32;
  float left = __shfl_up_sync(0xffffffffu, centre, 1), right = __shfl_down_sync(0xffffffffu, centre, 1);
  if (lane == 0 || cx == 0 || cx != x) left = row[cx > 0 ? cx - 1 : 0];
  if (lane == 31 || cx + 1 >= width || cx != x) right = row[cx + 1 < width ? cx + 1 : cx];
  if (x >= width || y >= height) return;
  const unsigned up = y > 0 ? y - 1 : 0, down = y + 1 < height ? y + 1 : y;
  const float neighbours = left + right + row_of(in, pitch, up)[x] + row_of(in, pitch, down)[x];
  reinterpret_cast<float*>(reinterpret_cast<char*>(out) + y * pitch)[x] = c0 * centre + c1 * neighbours;
}
