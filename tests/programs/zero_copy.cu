// Zero-copy: kernels read and write pinned host memory mapped into the GPU's address space
// (cudaHostAllocMapped), then the same work on device memory, and the results compared.
//   zero_copy        prints both sums; exit 0 when they agree with the host's
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                                  \
  do {                                                                               \
    cudaError_t e_ = (call);                                                         \
    if (e_ != cudaSuccess) {                                                         \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); \
      std::exit(2);                                                                  \
    }                                                                                \
  } while (0)

constexpr int kN = 1 << 20;

__global__ void saxpy(float* y, const float* x, int n, float a) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

int main() {
  CHECK(cudaSetDeviceFlags(cudaDeviceMapHost));
  float *hx = nullptr, *hy = nullptr, *mx = nullptr, *my = nullptr;
  CHECK(cudaHostAlloc(&hx, kN * sizeof(float), cudaHostAllocMapped));
  CHECK(cudaHostAlloc(&hy, kN * sizeof(float), cudaHostAllocMapped));
  for (int i = 0; i < kN; ++i) {
    hx[i] = static_cast<float>(i % 7);
    hy[i] = 1.0f;
  }
  CHECK(cudaHostGetDevicePointer(&mx, hx, 0));
  CHECK(cudaHostGetDevicePointer(&my, hy, 0));
  saxpy<<<kN / 256, 256>>>(my, mx, kN, 2.0f);   // over PCIe, straight into host memory
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());

  float *dx = nullptr, *dy = nullptr;
  CHECK(cudaMalloc(&dx, kN * sizeof(float)));
  CHECK(cudaMalloc(&dy, kN * sizeof(float)));
  CHECK(cudaMemcpy(dx, hx, kN * sizeof(float), cudaMemcpyHostToDevice));
  std::vector<float> ones(kN, 1.0f), back(kN);
  CHECK(cudaMemcpy(dy, ones.data(), kN * sizeof(float), cudaMemcpyHostToDevice));
  saxpy<<<kN / 256, 256>>>(dy, dx, kN, 2.0f);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(back.data(), dy, kN * sizeof(float), cudaMemcpyDeviceToHost));

  double mapped = 0, device = 0, expected = 0;
  for (int i = 0; i < kN; ++i) {
    mapped += hy[i];
    device += back[i];
    expected += 2.0 * (i % 7) + 1.0;
  }
  std::printf("mapped host memory: %.1f\ndevice memory: %.1f\n", mapped, device);
  CHECK(cudaFreeHost(hx));
  CHECK(cudaFreeHost(hy));
  CHECK(cudaFree(dx));
  CHECK(cudaFree(dy));
  return mapped == expected && device == expected ? 0 : 1;
}
