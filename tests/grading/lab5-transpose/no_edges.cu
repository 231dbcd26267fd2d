// Planted submission: the tiled kernel without bounds checks: right on multiples of 32 only.
#include <cuda_runtime.h>

__global__ void transpose_kernel(const float* in, float* out, unsigned nx, unsigned ny) {
  __shared__ float tile[32][33];
  unsigned x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  for (unsigned j = 0; j < 32; j += 8) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * nx + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  for (unsigned j = 0; j < 32; j += 8) out[(y + j) * ny + x] = tile[threadIdx.x][threadIdx.y + j];
}

void transpose(const float* in, float* out, unsigned nx, unsigned ny) {
  transpose_kernel<<<dim3((nx + 31) / 32, (ny + 31) / 32), dim3(32, 8)>>>(in, out, nx, ny);
}
