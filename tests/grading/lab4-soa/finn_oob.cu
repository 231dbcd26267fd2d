// Planted submission: writes far past the end of its output (an illegal address).
#include <cuda_runtime.h>

__global__ void add_points(const float* x, const float* y, float* rx, float* ry, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    rx[i + 64u * 1024u * 1024u * 16u] = x[i] + 10.f;
    ry[i] = y[i] + 20.f;
  }
}
