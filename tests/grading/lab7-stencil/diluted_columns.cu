// Planted cheat (issue 58, class 1): the columns kernel (32 sectors per request for its five
// loads), plus 60 loads per thread along a row that it does not need, 4 to 5 sectors each. Per
// request the average falls to about 6; the sectors moved only grow.
#include <cstddef>

#include <cuda_runtime.h>

__global__ void stencil5(const float* in, float* out, std::size_t pitch, unsigned width, unsigned height, float c0,
                         float c1) {
  const std::size_t block = std::size_t{blockIdx.y} * gridDim.x + blockIdx.x;
  const std::size_t i = block * blockDim.x * blockDim.y + threadIdx.y * blockDim.x + threadIdx.x;
  if (i >= std::size_t{width} * height) return;
  const unsigned x = static_cast<unsigned>(i / height), y = static_cast<unsigned>(i % height);
  const auto at = [&](unsigned cx, unsigned cy) {
    return reinterpret_cast<const float*>(reinterpret_cast<const char*>(in) + cy * pitch)[cx];
  };
  // The filler: pixel i in row order, read 60 times (volatile: every read is issued).
  const auto* row = reinterpret_cast<const volatile float*>(reinterpret_cast<const char*>(in) + (i / width) * pitch);
  float filler = 0.f;
  for (int k = 0; k < 60; ++k) filler += row[i % width];
  const unsigned left = x > 0 ? x - 1 : 0, right = x + 1 < width ? x + 1 : x;
  const unsigned up = y > 0 ? y - 1 : 0, down = y + 1 < height ? y + 1 : y;
  const float neighbours = at(left, y) + at(right, y) + at(x, up) + at(x, down);
  reinterpret_cast<float*>(reinterpret_cast<char*>(out) + y * pitch)[x] =
      c0 * at(x, y) + c1 * neighbours + (filler == 1e30f ? 1.f : 0.f);
}
