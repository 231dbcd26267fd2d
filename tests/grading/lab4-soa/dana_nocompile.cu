// Planted submission: does not compile (a missing semicolon and an undeclared name).
#include <cuda_runtime.h>

__global__ void add_points(const float* x, const float* y, float* rx, float* ry, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x
  rx[i] = x[i] + offset;
}
