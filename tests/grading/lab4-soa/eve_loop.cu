// Planted submission: never finishes (an infinite loop the compiler cannot remove).
#include <cuda_runtime.h>

__global__ void add_points(const float* x, const float* y, float* rx, float* ry, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  volatile float* out = rx;
  for (unsigned k = 0;; ++k)
    if (i < n) out[i] = x[i] + static_cast<float>(k);
}
