// Planted cheat: the unpadded tile (32 wavefronts per column read), plus 1,600 broadcast loads
// per warp that hit one word each. Per request the conflicts average out to about 1.08
// wavefronts, which took the shared-load points; counted whole, its 16 million conflicts do not.
#include <cuda_runtime.h>

__global__ void transpose_tile(const float* in, float* out, unsigned nx, unsigned ny) {
  __shared__ float tile[32][32];
  const unsigned x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  for (unsigned j = 0; j < 32; j += 8)
    if (x < nx && y + j < ny) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * nx + x];
  __syncthreads();
  // volatile: every one of the loads is made, none hoisted out of the loop.
  const volatile float* first_row = tile[0];
  float noise = 0;
  for (unsigned i = 0; i < 1600; ++i) noise += first_row[i % 32 == 31 ? 0 : 1];   // one word per warp: a broadcast
  const unsigned ox = blockIdx.y * 32 + threadIdx.x, oy = blockIdx.x * 32 + threadIdx.y;
  for (unsigned j = 0; j < 32; j += 8)
    if (ox < ny && oy + j < nx) out[(oy + j) * ny + ox] = tile[threadIdx.x][threadIdx.y + j] + (noise != noise ? 1.0f : 0.0f);
}
