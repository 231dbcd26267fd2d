// Planted submission: full marks another way. The block's 32 x 8 pixels and a one-pixel halo go
// through a shared tile, each loaded once along rows (clamped coordinates, so the threads past
// the image's edge load too and every thread reaches the barrier); the halo's one-lane loads
// lower the sectors per request, and the time stays near the reference's.
#include <cstddef>

#include <cuda_runtime.h>

namespace {

constexpr unsigned kX = 32, kY = 8;   // the harness's block

__device__ inline unsigned clamp_to(int v, unsigned n) { return v < 0 ? 0u : static_cast<unsigned>(v) >= n ? n - 1 : v; }

}  // namespace

__global__ void stencil5(const float* in, float* out, std::size_t pitch, unsigned width, unsigned height, float c0,
                         float c1) {
  __shared__ float tile[kY + 2][kX + 2];
  const unsigned tx = threadIdx.x, ty = threadIdx.y;
  const int x = static_cast<int>(blockIdx.x * kX + tx), y = static_cast<int>(blockIdx.y * kY + ty);
  const auto at = [&](int cx, int cy) {
    const char* row = reinterpret_cast<const char*>(in) + static_cast<std::size_t>(clamp_to(cy, height)) * pitch;
    return reinterpret_cast<const float*>(row)[clamp_to(cx, width)];
  };
  tile[ty + 1][tx + 1] = at(x, y);
  if (tx == 0) tile[ty + 1][0] = at(x - 1, y);
  if (tx == kX - 1) tile[ty + 1][kX + 1] = at(x + 1, y);
  if (ty == 0) tile[0][tx + 1] = at(x, y - 1);
  if (ty == kY - 1) tile[kY + 1][tx + 1] = at(x, y + 1);
  __syncthreads();
  if (x >= static_cast<int>(width) || y >= static_cast<int>(height)) return;
  const float neighbours = tile[ty + 1][tx] + tile[ty + 1][tx + 2] + tile[ty][tx + 1] + tile[ty + 2][tx + 1];
  float* out_row = reinterpret_cast<float*>(reinterpret_cast<char*>(out) + static_cast<std::size_t>(y) * pitch);
  out_row[x] = c0 * tile[ty + 1][tx + 1] + c1 * neighbours;
}
