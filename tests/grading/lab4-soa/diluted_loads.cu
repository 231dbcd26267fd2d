// Planted cheat (issue 58, class 1): bob_slow's scattered loads and stores, plus 30 coalesced
// loads per thread that it does not need. Loads are then 70 % "efficient" on average (12.5 %
// without them), while the sectors the work moved are still 8 times what it needs.
#include <cuda_runtime.h>

__global__ void add_points(const float* x, const float* y, float* rx, float* ry, unsigned n) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned total = gridDim.x * blockDim.x;
  const unsigned rows = total / 32;
  const unsigned i = (t % 32) * rows + t / 32;
  float filler = 0.f;
  if (t < n)
    for (int k = 0; k < 30; ++k) filler += reinterpret_cast<const volatile float*>(k % 2 ? y : x)[t];
  if (i < n) {
    rx[i] = x[i] + 10.f + (filler == 1e30f ? 1.f : 0.f);
    ry[i] = y[i] + 20.f;
  }
}
