// Planted submission: correct but uncoalesced. Each thread handles a different element than
// its index, 32 elements apart from its warp neighbours, so every load and store of a warp
// falls in a different sector.
#include <cuda_runtime.h>

__global__ void add_points(const float* x, const float* y, float* rx, float* ry, unsigned n) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned total = gridDim.x * blockDim.x;     // >= n, a multiple of 32
  const unsigned rows = total / 32;
  const unsigned i = (t % 32) * rows + t / 32;       // a permutation of [0, total)
  if (i < n) {
    rx[i] = x[i] + 10.f;
    ry[i] = y[i] + 20.f;
  }
}
