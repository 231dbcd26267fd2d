// Planted submission: right, but no tile at all: it reads rows and writes columns straight in
// global memory, so the shared-memory criteria have nothing to measure and its stores are
// scattered.
#include <cuda_runtime.h>

__global__ void transpose_tile(const float* in, float* out, unsigned nx, unsigned ny) {
  const unsigned x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  for (unsigned j = 0; j < 32; j += 8)
    if (x < nx && y + j < ny) out[x * ny + y + j] = in[(y + j) * nx + x];
}
