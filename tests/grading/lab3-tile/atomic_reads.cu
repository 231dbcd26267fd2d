// Planted cheat (issue 58, class 3): the unpadded tile, read by columns through an atomic that
// changes nothing (an OR with 0), 32 lanes on one bank as before; one conflict-free load per
// thread beside it, so that the kernel has shared loads to count and none of them conflicts.
#include <cuda_runtime.h>

__global__ void transpose_tile(const float* in, float* out, unsigned nx, unsigned ny) {
  __shared__ float tile[32][32];
  const unsigned x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  for (unsigned j = 0; j < 32; j += 8)
    if (x < nx && y + j < ny) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * nx + x];
  __syncthreads();
  const float seen = reinterpret_cast<volatile float*>(tile[threadIdx.y])[threadIdx.x];
  const unsigned ox = blockIdx.y * 32 + threadIdx.x, oy = blockIdx.x * 32 + threadIdx.y;
  for (unsigned j = 0; j < 32; j += 8)
    if (ox < ny && oy + j < nx) {
      const unsigned bits = atomicOr(reinterpret_cast<unsigned*>(&tile[threadIdx.x][threadIdx.y + j]), 0u);
      out[(oy + j) * ny + ox] = __uint_as_float(bits) + (seen == 1e30f ? 1.f : 0.f);
    }
}
