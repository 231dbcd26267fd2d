// Planted submission: the lab's shortcut, wrong. It computes the interior pixels only, where
// no neighbour needs clamping, and leaves the border as the harness poisoned it (NaN), as if
// nobody looked there: labbook checks every pixel, the border first.
#include <cstddef>

#include <cuda_runtime.h>

__global__ void stencil5(const float* in, float* out, std::size_t pitch, unsigned width, unsigned height, float c0,
                         float c1) {
  const unsigned x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x == 0 || y == 0 || x + 1 >= width || y + 1 >= height) return;
  const auto row = [&](unsigned r) { return reinterpret_cast<const float*>(reinterpret_cast<const char*>(in) + r * pitch); };
  const float neighbours = row(y)[x - 1] + row(y)[x + 1] + row(y - 1)[x] + row(y + 1)[x];
  reinterpret_cast<float*>(reinterpret_cast<char*>(out) + y * pitch)[x] = c0 * row(y)[x] + c1 * neighbours;
}
