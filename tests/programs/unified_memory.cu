// Unified memory: two 4 MB managed arrays that the host fills, kernels update (one array
// prefetched to the GPU first, the other migrated on demand by page faults) and the host
// reads back.
//   unified_memory   prints both sums; exit 0 when they are right
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

__global__ void increment(int* a, int n, int by) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] += by;
}

int main() {
  int *prefetched = nullptr, *faulted = nullptr;
  CHECK(cudaMallocManaged(&prefetched, kN * sizeof(int)));
  CHECK(cudaMallocManaged(&faulted, kN * sizeof(int)));
  for (int i = 0; i < kN; ++i) prefetched[i] = faulted[i] = i & 255;
  int device = 0;
  CHECK(cudaGetDevice(&device));
  cudaMemLocation gpu{};
  gpu.type = cudaMemLocationTypeDevice;
  gpu.id = device;
  CHECK(cudaMemPrefetchAsync(prefetched, kN * sizeof(int), gpu, 0, 0));
  for (int r = 0; r < 3; ++r) {
    increment<<<kN / 256, 256>>>(prefetched, kN, 1);
    increment<<<kN / 256, 256>>>(faulted, kN, 2);
  }
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  long long a = 0, b = 0, base = 0;
  for (int i = 0; i < kN; ++i) {
    a += prefetched[i];
    b += faulted[i];
    base += i & 255;
  }
  std::printf("prefetched: %lld\nfaulted: %lld\n", a, b);
  CHECK(cudaFree(prefetched));
  CHECK(cudaFree(faulted));
  return a == base + 3LL * kN && b == base + 6LL * kN ? 0 : 1;
}
