// Adversarial: computes once per size, keeps the answer, and hands it back on every later call
// of that size with a copy, as if the data could not change.
#include <cuda_runtime.h>

__global__ void transpose_kernel(const float* in, float* out, unsigned nx, unsigned ny) {
  const unsigned x = blockIdx.x * 32 + threadIdx.x;
  for (unsigned j = 0; j < 32; j += 8) {
    const unsigned y = blockIdx.y * 32 + threadIdx.y + j;
    if (x < nx && y < ny) out[x * ny + y] = in[y * nx + x];
  }
}

void transpose(const float* in, float* out, unsigned nx, unsigned ny) {
  static float* kept = nullptr;
  static unsigned kept_nx = 0, kept_ny = 0;
  const size_t bytes = sizeof(float) * nx * ny;
  if (kept && kept_nx == nx && kept_ny == ny) {
    cudaMemcpyAsync(out, kept, bytes, cudaMemcpyDeviceToDevice);
    return;
  }
  transpose_kernel<<<dim3((nx + 31) / 32, (ny + 31) / 32), dim3(32, 8)>>>(in, out, nx, ny);
  cudaFree(kept);
  cudaMalloc(&kept, bytes);
  cudaMemcpyAsync(kept, out, bytes, cudaMemcpyDeviceToDevice);
  kept_nx = nx;
  kept_ny = ny;
}
