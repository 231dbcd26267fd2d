// Planted submission: fast but wrong (adds 10 to y as well).
#include <cuda_runtime.h>

__global__ void add_points(const float* x, const float* y, float* rx, float* ry, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    rx[i] = x[i] + 10.f;
    ry[i] = y[i] + 10.f;
  }
}
