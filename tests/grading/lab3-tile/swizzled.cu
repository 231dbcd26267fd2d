// Planted submission: no padding, but the column of each element is XOR-ed with its row, so
// a row still spreads over 32 banks and so does a column. Any conflict-free layout earns
// full marks, not only the padded one.
#include <cuda_runtime.h>

__device__ __forceinline__ unsigned swizzle(unsigned row, unsigned column) { return row * 32 + (column ^ row); }

__global__ void transpose_tile(const float* in, float* out, unsigned nx, unsigned ny) {
  __shared__ float tile[32 * 32];
  const unsigned x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  for (unsigned j = 0; j < 32; j += 8)
    if (x < nx && y + j < ny) tile[swizzle(threadIdx.y + j, threadIdx.x)] = in[(y + j) * nx + x];
  __syncthreads();
  const unsigned ox = blockIdx.y * 32 + threadIdx.x, oy = blockIdx.x * 32 + threadIdx.y;
  for (unsigned j = 0; j < 32; j += 8)
    if (ox < ny && oy + j < nx) out[(oy + j) * ny + ox] = tile[swizzle(threadIdx.x, threadIdx.y + j)];
}
