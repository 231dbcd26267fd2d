// The misaligned-read experiment on its own: C[i] = A[i + offset] + B[i + offset] over 2^20
// floats, one warmup launch and then the launch to measure, inside an NVTX range
// "readOffset". Exactly two kernel launches, both of readOffset (one with --once: the
// measured launch alone).
//   misaligned_read [OFFSET [--once]]   OFFSET >= 0 (default 11). Exit 0 when the result is
//                                       right, 1 otherwise.
#include <nvtx3/nvToolsExt.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CHECK(call)                                                                  \
  do {                                                                               \
    cudaError_t e_ = (call);                                                         \
    if (e_ != cudaSuccess) {                                                         \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); \
      std::exit(2);                                                                  \
    }                                                                                \
  } while (0)

__global__ void readOffset(float* A, float* B, float* C, int n, int offset) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int k = i + offset;
  if (i < n && k < n) C[i] = A[k] + B[k];
}

int main(int argc, char** argv) {
  const int offset = argc > 1 ? std::atoi(argv[1]) : 11;
  const bool once = argc > 2 && std::strcmp(argv[2], "--once") == 0;
  if (offset < 0 || (argc > 2 && !once) || argc > 3) {
    std::fprintf(stderr, "usage: misaligned_read [OFFSET >= 0 [--once]]\n");
    return 2;
  }
  const int n = 1 << 20, threads = 512, blocks = (n + threads - 1) / threads;
  const size_t bytes = n * sizeof(float);
  std::vector<float> A(n), B(n), C(n);
  for (int i = 0; i < n; ++i) {
    A[i] = static_cast<float>(i % 100);
    B[i] = static_cast<float>(i % 10);
  }
  float *d_A, *d_B, *d_C;
  CHECK(cudaMalloc(&d_A, bytes));
  CHECK(cudaMalloc(&d_B, bytes));
  CHECK(cudaMalloc(&d_C, bytes));
  CHECK(cudaMemcpy(d_A, A.data(), bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_B, B.data(), bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_C, 0, bytes));

  if (!once) {
    readOffset<<<blocks, threads>>>(d_A, d_B, d_C, n, offset);   // warmup
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
  }
  nvtxRangePushA("readOffset");
  readOffset<<<blocks, threads>>>(d_A, d_B, d_C, n, offset);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  nvtxRangePop();

  CHECK(cudaMemcpy(C.data(), d_C, bytes, cudaMemcpyDeviceToHost));
  bool right = true;
  double sum = 0;
  for (int i = 0; i < n; ++i) {
    const float want = i + offset < n ? A[i + offset] + B[i + offset] : 0.0f;
    right = right && C[i] == want;
    sum += C[i];
  }
  std::printf("readOffset offset %d: sum %.0f\n", offset, sum);
  CHECK(cudaFree(d_A));
  CHECK(cudaFree(d_B));
  CHECK(cudaFree(d_C));
  return right ? 0 : 1;
}
