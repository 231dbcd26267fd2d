// Adversarial: launches the (naive) work on a stream of its own and returns at once, so that
// a timer of the default stream would see nothing. A device-wide synchronisation sees it all.
#include <cuda_runtime.h>

__global__ void transpose_kernel(const float* in, float* out, unsigned nx, unsigned ny) {
  const unsigned x = blockIdx.x * 32 + threadIdx.x;
  for (unsigned j = 0; j < 32; j += 8) {
    const unsigned y = blockIdx.y * 32 + threadIdx.y + j;
    if (x < nx && y < ny) out[x * ny + y] = in[y * nx + x];
  }
}

void transpose(const float* in, float* out, unsigned nx, unsigned ny) {
  static cudaStream_t side = nullptr;
  if (!side) cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking);
  transpose_kernel<<<dim3((nx + 31) / 32, (ny + 31) / 32), dim3(32, 8), 0, side>>>(in, out, nx, ny);
}
