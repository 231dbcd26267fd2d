// Planted submission: full marks. A warp along a row (threadIdx.x is x), rows found with the
// pitch through a char pointer, the neighbours clamped into the image.
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
  if (x >= width || y >= height) return;
  const unsigned left = x > 0 ? x - 1 : 0, right = x + 1 < width ? x + 1 : x;
  const unsigned up = y > 0 ? y - 1 : 0, down = y + 1 < height ? y + 1 : y;
  const float* row = row_of(in, pitch, y);
  const float neighbours = row[left] + row[right] + row_of(in, pitch, up)[x] + row_of(in, pitch, down)[x];
  reinterpret_cast<float*>(reinterpret_cast<char*>(out) + y * pitch)[x] = c0 * row[x] + c1 * neighbours;
}
