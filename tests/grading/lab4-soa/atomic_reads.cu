// Planted cheat (issue 58, class 3): bob_slow's scattered reads made by an atomic that changes
// nothing (an OR with 0), so that no global load instruction shows them.
#include <cuda_runtime.h>

namespace {
__device__ float read_by_atomic(const float* p) {
  return __uint_as_float(atomicOr(const_cast<unsigned*>(reinterpret_cast<const unsigned*>(p)), 0u));
}
}  // namespace

__global__ void add_points(const float* x, const float* y, float* rx, float* ry, unsigned n) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned total = gridDim.x * blockDim.x;
  const unsigned rows = total / 32;
  const unsigned i = (t % 32) * rows + t / 32;
  if (i < n) {
    rx[i] = read_by_atomic(x + i) + 10.f;
    ry[i] = read_by_atomic(y + i) + 20.f;
  }
}
