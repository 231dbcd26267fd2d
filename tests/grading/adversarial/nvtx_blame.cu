// Adversarial: opens an NVTX range named like the reference's around its own slow work, so that
// a measurement by range would put its time on the reference and leave its own call empty.
#include <cuda_runtime.h>
#include <nvtx3/nvToolsExt.h>

__global__ void transpose_kernel(const float* in, float* out, unsigned nx, unsigned ny) {
  const unsigned x = blockIdx.x * 32 + threadIdx.x;
  for (unsigned j = 0; j < 32; j += 8) {
    const unsigned y = blockIdx.y * 32 + threadIdx.y + j;
    if (x < nx && y < ny) out[x * ny + y] = in[y * nx + x];
  }
}

void transpose(const float* in, float* out, unsigned nx, unsigned ny) {
  nvtxRangePushA("reference/n=8192/1");
  transpose_kernel<<<dim3((nx + 31) / 32, (ny + 31) / 32), dim3(32, 8)>>>(in, out, nx, ny);
  nvtxRangePop();
}
