// Planted submission: correct and coalesced (thread i reads and writes element i).
#include <cuda_runtime.h>

__global__ void add_points(const float* x, const float* y, float* rx, float* ry, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    // Both loads before either store: rx may alias y, so the compiler keeps the order written.
    const float xi = x[i], yi = y[i];
    rx[i] = xi + 10.f;
    ry[i] = yi + 20.f;
  }
}
