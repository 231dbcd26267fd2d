// Planted submission: right, but uncoalesced. It numbers the pixels column after column
// (consecutive threads go down a column), so the 32 threads of a warp read one float in each of
// 32 rows: 32 sectors per request for every load and store. Partial marks (correctness only).
#include <cstddef>

#include <cuda_runtime.h>

__global__ void stencil5(const float* in, float* out, std::size_t pitch, unsigned width, unsigned height, float c0,
                         float c1) {
  const std::size_t block = std::size_t{blockIdx.y} * gridDim.x + blockIdx.x;
  const std::size_t i = block * blockDim.x * blockDim.y + threadIdx.y * blockDim.x + threadIdx.x;
  if (i >= std::size_t{width} * height) return;   // the grid covers at least width x height threads
  const unsigned x = static_cast<unsigned>(i / height), y = static_cast<unsigned>(i % height);
  const auto at = [&](unsigned cx, unsigned cy) {
    return reinterpret_cast<const float*>(reinterpret_cast<const char*>(in) + cy * pitch)[cx];
  };
  const unsigned left = x > 0 ? x - 1 : 0, right = x + 1 < width ? x + 1 : x;
  const unsigned up = y > 0 ? y - 1 : 0, down = y + 1 < height ? y + 1 : y;
  const float neighbours = at(left, y) + at(right, y) + at(x, up) + at(x, down);
  reinterpret_cast<float*>(reinterpret_cast<char*>(out) + y * pitch)[x] = c0 * at(x, y) + c1 * neighbours;
}
