// Adversarial: lets lab 7's own stencilGlobal, which the harness links in, do the loads as a
// child grid (the plain sum of the five pixels, clamped), then weighs the sum with a kernel of
// its own: c1 * sum + (c0 - c1) * centre = c0 * centre + c1 * (the four neighbours), right and
// about as fast as the reference. Launching the lab's kernels is refused when it is built.
#include <cstddef>

#include <cuda_runtime.h>

namespace labbook::kernels {
template <bool ByColumns>
__global__ void stencilGlobal(const float* in, std::size_t in_pitch, float* out, std::size_t out_pitch, unsigned width,
                              unsigned height);
}

namespace {

__global__ void weigh(const float* in, float* out, std::size_t pitch, unsigned width, unsigned height, float c0, float c1) {
  const unsigned x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  const float centre = reinterpret_cast<const float*>(reinterpret_cast<const char*>(in) + y * pitch)[x];
  float* o = reinterpret_cast<float*>(reinterpret_cast<char*>(out) + y * pitch) + x;
  *o = c1 * *o + (c0 - c1) * centre;
}

}  // namespace

__global__ void stencil5(const float* in, float* out, std::size_t pitch, unsigned width, unsigned height, float c0,
                         float c1) {
  // Two child grids from one thread, in one stream: the second starts when the first is done.
  if (blockIdx.x == 0 && blockIdx.y == 0 && threadIdx.x == 0 && threadIdx.y == 0) {
    labbook::kernels::stencilGlobal<false><<<gridDim, blockDim>>>(in, pitch, out, pitch, width, height);
    weigh<<<gridDim, blockDim>>>(in, out, pitch, width, height, c0, c1);
  }
}
