// Adversarial: a device-wide setting that lasts beyond its own call: L1 cut to its smallest for
// every kernel, which slows the lab's reference (it reads columns through L1) while its own
// kernel, reading rows, hardly cares.
#include <cuda_runtime.h>

__global__ void transpose_kernel(const float* in, float* out, unsigned nx, unsigned ny) {
  const unsigned x = blockIdx.x * 32 + threadIdx.x;
  for (unsigned j = 0; j < 32; j += 8) {
    const unsigned y = blockIdx.y * 32 + threadIdx.y + j;
    if (x < nx && y < ny) out[x * ny + y] = in[y * nx + x];
  }
}

void transpose(const float* in, float* out, unsigned nx, unsigned ny) {
  cudaDeviceSetCacheConfig(cudaFuncCachePreferShared);
  transpose_kernel<<<dim3((nx + 31) / 32, (ny + 31) / 32), dim3(32, 8)>>>(in, out, nx, ny);
}
