// Planted cheat (issue 58, class 1): bob_slow's scattered accesses, plus 16 coalesced stores per
// thread to a scratch buffer of its own, so that store efficiency, an average over every store,
// climbs to 56 %; the stores the work needed still move 8 times their bytes.
#include <cuda_runtime.h>

namespace {
constexpr unsigned kScratch = (1u << 22) + 1024;   // the harness's largest call is 2^22 + 17
__device__ float scratch[16 * kScratch];
}  // namespace

__global__ void add_points(const float* x, const float* y, float* rx, float* ry, unsigned n) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned total = gridDim.x * blockDim.x;
  const unsigned rows = total / 32;
  const unsigned i = (t % 32) * rows + t / 32;
  if (t < n)
    for (unsigned k = 0; k < 16; ++k) scratch[k * kScratch + t] = static_cast<float>(k);
  if (i < n) {
    rx[i] = x[i] + 10.f;
    ry[i] = y[i] + 20.f;
  }
}
