// Adversarial: moves half-precision values (half the bytes), which a harness that compared
// loosely would let pass.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

__global__ void transpose_kernel(const float* in, float* out, unsigned nx, unsigned ny) {
  __shared__ __half tile[32][34];
  unsigned x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  for (unsigned j = 0; j < 32; j += 8)
    if (x < nx && y + j < ny) tile[threadIdx.y + j][threadIdx.x] = __float2half(in[(y + j) * nx + x]);
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  for (unsigned j = 0; j < 32; j += 8)
    if (x < ny && y + j < nx) out[(y + j) * ny + x] = __half2float(tile[threadIdx.x][threadIdx.y + j]);
}

void transpose(const float* in, float* out, unsigned nx, unsigned ny) {
  transpose_kernel<<<dim3((nx + 31) / 32, (ny + 31) / 32), dim3(32, 8)>>>(in, out, nx, ny);
}
