// Adversarial: the naive transpose (rows read, columns written: 4 useful bytes in each 32-byte
// sector stored), plus a burst of perfectly coalesced stores to a scratch buffer of its own,
// so that the hardware's store efficiency, an average over every store, climbs toward 100 %.
// The bytes the problem needed are still an eighth of what its own stores moved.
#include <cuda_runtime.h>

__global__ void transpose_kernel(const float* in, float* out, unsigned nx, unsigned ny) {
  const unsigned x = blockIdx.x * 32 + threadIdx.x;
  for (unsigned j = 0; j < 32; j += 8) {
    const unsigned y = blockIdx.y * 32 + threadIdx.y + j;
    if (x < nx && y < ny) out[x * ny + y] = in[y * nx + x];
  }
}

__global__ void pad_stores(float* scratch, unsigned long long n, unsigned rounds) {
  for (unsigned r = 0; r < rounds; ++r)
    for (unsigned long long i = blockIdx.x * 256ull + threadIdx.x; i < n; i += gridDim.x * 256ull) scratch[i] = static_cast<float>(r);
}

void transpose(const float* in, float* out, unsigned nx, unsigned ny) {
  static float* scratch = nullptr;
  const unsigned long long n = 16ull << 20;   // 64 MiB of floats
  if (!scratch) cudaMalloc(&scratch, n * sizeof(float));
  transpose_kernel<<<dim3((nx + 31) / 32, (ny + 31) / 32), dim3(32, 8)>>>(in, out, nx, ny);
  pad_stores<<<1024, 256>>>(scratch, n, 64);
}
