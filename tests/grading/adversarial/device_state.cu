// Adversarial: keeps a call count in __device__ memory between calls, and from the fourth
// call on (the second timed one) leaves the last column of every tile out.
#include <cuda_runtime.h>

__device__ unsigned calls;

__global__ void count_call() { ++calls; }

__global__ void transpose_kernel(const float* in, float* out, unsigned nx, unsigned ny) {
  const unsigned x = blockIdx.x * 32 + threadIdx.x;
  if (calls >= 4 && threadIdx.x == 31) return;
  for (unsigned j = 0; j < 32; j += 8) {
    const unsigned y = blockIdx.y * 32 + threadIdx.y + j;
    if (x < nx && y < ny) out[x * ny + y] = in[y * nx + x];
  }
}

void transpose(const float* in, float* out, unsigned nx, unsigned ny) {
  count_call<<<1, 1>>>();
  transpose_kernel<<<dim3((nx + 31) / 32, (ny + 31) / 32), dim3(32, 8)>>>(in, out, nx, ny);
}
