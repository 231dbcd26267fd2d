// Adversarial: launches the work from a thread of its own, outside the harness's NVTX range,
// so that a range-based measurement of the call would find nothing to time.
#include <cuda_runtime.h>

#include <thread>

__global__ void transpose_kernel(const float* in, float* out, unsigned nx, unsigned ny) {
  const unsigned x = blockIdx.x * 32 + threadIdx.x;
  for (unsigned j = 0; j < 32; j += 8) {
    const unsigned y = blockIdx.y * 32 + threadIdx.y + j;
    if (x < nx && y < ny) out[x * ny + y] = in[y * nx + x];
  }
}

void transpose(const float* in, float* out, unsigned nx, unsigned ny) {
  std::thread([=] {
    transpose_kernel<<<dim3((nx + 31) / 32, (ny + 31) / 32), dim3(32, 8)>>>(in, out, nx, ny);
    cudaDeviceSynchronize();
  }).join();
}
