// Adversarial: sets aside L2 for persisting lines, marks the input persisting, and reads it
// once before the real kernel, so that the kernel finds it in L2 rather than DRAM.
#include <cuda_runtime.h>

#include <algorithm>

__global__ void touch(const float* in, size_t n, float* sink) {
  float s = 0;
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) s += in[i];
  if (s == 12345.f) *sink = s;
}

__global__ void transpose_kernel(const float* in, float* out, unsigned nx, unsigned ny) {
  __shared__ float tile[32][33];
  unsigned x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  for (unsigned j = 0; j < 32; j += 8)
    if (x < nx && y + j < ny) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * nx + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  for (unsigned j = 0; j < 32; j += 8)
    if (x < ny && y + j < nx) out[(y + j) * ny + x] = tile[threadIdx.x][threadIdx.y + j];
}

void transpose(const float* in, float* out, unsigned nx, unsigned ny) {
  int device = 0, most = 0, window = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&most, cudaDevAttrMaxPersistingL2CacheSize, device);
  cudaDeviceGetAttribute(&window, cudaDevAttrMaxAccessPolicyWindowSize, device);
  cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, most);
  cudaStreamAttrValue policy{};
  policy.accessPolicyWindow.base_ptr = const_cast<float*>(in);
  policy.accessPolicyWindow.num_bytes = std::min<size_t>(sizeof(float) * nx * ny, window);
  policy.accessPolicyWindow.hitRatio = 1.0f;
  policy.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
  policy.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
  cudaStreamSetAttribute(0, cudaStreamAttributeAccessPolicyWindow, &policy);
  touch<<<264, 256>>>(in, policy.accessPolicyWindow.num_bytes / sizeof(float), out);
  transpose_kernel<<<dim3((nx + 31) / 32, (ny + 31) / 32), dim3(32, 8)>>>(in, out, nx, ny);
}
