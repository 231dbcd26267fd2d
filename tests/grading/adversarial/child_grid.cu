// Adversarial: launches a one-thread kernel that does the (naive) work in a child grid, so
// that a timer of its own kernel's launch alone would see almost nothing.
#include <cuda_runtime.h>

__global__ void transpose_kernel(const float* in, float* out, unsigned nx, unsigned ny) {
  const unsigned x = blockIdx.x * 32 + threadIdx.x;
  for (unsigned j = 0; j < 32; j += 8) {
    const unsigned y = blockIdx.y * 32 + threadIdx.y + j;
    if (x < nx && y < ny) out[x * ny + y] = in[y * nx + x];
  }
}

__global__ void parent(const float* in, float* out, unsigned nx, unsigned ny) {
  transpose_kernel<<<dim3((nx + 31) / 32, (ny + 31) / 32), dim3(32, 8)>>>(in, out, nx, ny);
}

void transpose(const float* in, float* out, unsigned nx, unsigned ny) { parent<<<1, 1>>>(in, out, nx, ny); }
