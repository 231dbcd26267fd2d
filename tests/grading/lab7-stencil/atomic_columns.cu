// Planted cheat (issue 58, class 3): the columns kernel with its five reads made by an atomic
// that changes nothing (an OR with 0), and one load along a row, so that the only global load
// instruction a warp executes is a coalesced one.
#include <cstddef>

#include <cuda_runtime.h>

namespace {
__device__ float read_by_atomic(const float* p) {
  return __uint_as_float(atomicOr(const_cast<unsigned*>(reinterpret_cast<const unsigned*>(p)), 0u));
}
}  // namespace

__global__ void stencil5(const float* in, float* out, std::size_t pitch, unsigned width, unsigned height, float c0,
                         float c1) {
  const std::size_t block = std::size_t{blockIdx.y} * gridDim.x + blockIdx.x;
  const std::size_t i = block * blockDim.x * blockDim.y + threadIdx.y * blockDim.x + threadIdx.x;
  if (i >= std::size_t{width} * height) return;
  const unsigned x = static_cast<unsigned>(i / height), y = static_cast<unsigned>(i % height);
  const auto at = [&](unsigned cx, unsigned cy) {
    return read_by_atomic(reinterpret_cast<const float*>(reinterpret_cast<const char*>(in) + cy * pitch) + cx);
  };
  const float seen = reinterpret_cast<const float*>(reinterpret_cast<const char*>(in) + (i / width) * pitch)[i % width];
  const unsigned left = x > 0 ? x - 1 : 0, right = x + 1 < width ? x + 1 : x;
  const unsigned up = y > 0 ? y - 1 : 0, down = y + 1 < height ? y + 1 : y;
  const float neighbours = at(left, y) + at(right, y) + at(x, up) + at(x, down);
  reinterpret_cast<float*>(reinterpret_cast<char*>(out) + y * pitch)[x] =
      c0 * at(x, y) + c1 * neighbours + (seen == 1e30f ? 1.f : 0.f);
}
