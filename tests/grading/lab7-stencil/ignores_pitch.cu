// Planted submission: wrong. Coalesced along rows, but it indexes the images as if their rows
// were packed (in[y * width + x]): where the pitch differs from width * 4 (every call here: the
// widths are odd) it reads the wrong rows and the NaN padding, and writes to the wrong places.
#include <cstddef>

#include <cuda_runtime.h>

__global__ void stencil5(const float* in, float* out, std::size_t pitch, unsigned width, unsigned height, float c0,
                         float c1) {
  const unsigned x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  const unsigned left = x > 0 ? x - 1 : 0, right = x + 1 < width ? x + 1 : x;
  const unsigned up = y > 0 ? y - 1 : 0, down = y + 1 < height ? y + 1 : y;
  const std::size_t w = width;   // the mistake: the row stride is the width, not the pitch
  const float neighbours = in[y * w + left] + in[y * w + right] + in[up * w + x] + in[down * w + x];
  out[y * w + x] = c0 * in[y * w + x] + c1 * neighbours;
}
