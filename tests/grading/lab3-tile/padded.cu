// Planted submission: the tile padded by one float a row, so a column's 32 words fall in 32
// banks; rows read, rows written.
#include <cuda_runtime.h>

__global__ void transpose_tile(const float* in, float* out, unsigned nx, unsigned ny) {
  __shared__ float tile[32][33];
  const unsigned x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  for (unsigned j = 0; j < 32; j += 8)
    if (x < nx && y + j < ny) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * nx + x];
  __syncthreads();
  const unsigned ox = blockIdx.y * 32 + threadIdx.x, oy = blockIdx.x * 32 + threadIdx.y;
  for (unsigned j = 0; j < 32; j += 8)
    if (ox < ny && oy + j < nx) out[(oy + j) * ny + ox] = tile[threadIdx.x][threadIdx.y + j];
}
