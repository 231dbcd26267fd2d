// Chapter-4 style: 2^20-float vectors, the misaligned read `readOffset` (C[i] = A[k] + B[k]
// with k = i + offset) swept over offsets 0..31 and repeated, and a plain `sumArrays`:
// many short launches, as programs that sweep a parameter make them.
//   many_launches [LAUNCHES] [--offset K]   LAUNCHES readOffset launches in all (default
//                   520), over offsets 0..31 or only K; prints a checksum per offset
#include <nvtx3/nvToolsExt.h>

#include <cstring>
#include <string>
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

__global__ void readOffset(const float* A, const float* B, float* C, int n, int offset) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int k = i + offset;
  if (k < n) C[i] = A[k] + B[k];
}
__global__ void sumArrays(const float* A, const float* B, float* C, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) C[i] = A[i] + B[i];
}

int main(int argc, char** argv) {
  int launches = 520, only = -1;
  for (int a = 1; a < argc; ++a) {
    if (std::strcmp(argv[a], "--offset") == 0 && a + 1 < argc) only = std::atoi(argv[++a]);
    else launches = std::atoi(argv[a]);
  }
  std::vector<float> ha(kN), hb(kN), hc(kN);
  for (int i = 0; i < kN; ++i) {
    ha[i] = static_cast<float>(i % 13);
    hb[i] = static_cast<float>(i % 7);
  }
  float *a = nullptr, *b = nullptr, *c = nullptr;
  CHECK(cudaMalloc(&a, kN * sizeof(float)));
  CHECK(cudaMalloc(&b, kN * sizeof(float)));
  CHECK(cudaMalloc(&c, kN * sizeof(float)));
  CHECK(cudaMemcpy(a, ha.data(), kN * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(b, hb.data(), kN * sizeof(float), cudaMemcpyHostToDevice));
  sumArrays<<<kN / 512, 512>>>(a, b, c, kN);
  CHECK(cudaGetLastError());

  const int offsets = only >= 0 ? 1 : 32;
  bool right = true;
  for (int o = 0; o < offsets; ++o) {
    const int offset = only >= 0 ? only : o;
    const int repeats = launches / offsets + (o < launches % offsets ? 1 : 0);
    if (repeats == 0) break;   // fewer launches than offsets: the rest would check nothing
    const std::string range = "offset " + std::to_string(offset);
    nvtxRangePushA(range.c_str());
    for (int r = 0; r < repeats; ++r) readOffset<<<kN / 512, 512>>>(a, b, c, kN, offset);
    nvtxRangePop();
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(hc.data(), c, kN * sizeof(float), cudaMemcpyDeviceToHost));
    double sum = 0, expected = 0;
    for (int i = 0; i + offset < kN; ++i) {
      sum += hc[i];
      expected += ha[i + offset] + hb[i + offset];
    }
    std::printf("offset %2d: %d launches, checksum %.1f\n", offset, repeats, sum);
    right = right && sum == expected;
  }
  CHECK(cudaFree(a));
  CHECK(cudaFree(b));
  CHECK(cudaFree(c));
  return right ? 0 : 1;
}
