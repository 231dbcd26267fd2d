// A program that ends with exit() from deep inside its own helpers, after kernels in NVTX
// ranges and output through both printf and std::cout, which exit() must flush.
//   exit_deep [CODE]     exits with CODE (default 3) from four calls deep; never returns
#include <nvtx3/nvToolsExt.h>

#include <iostream>
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

__global__ void ramp(float* x, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = static_cast<float>(i % 100);
}
__global__ void halve(float* x, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= 0.5f;
}

[[noreturn]] void give_up(int depth, int code, double sum) {
  if (depth > 0) give_up(depth - 1, code, sum);   // the deepest call exits
  std::cout << "validated sum " << sum << ", leaving with code " << code << "\n";
  std::exit(code);
}

void validate(const std::vector<float>& h, int code) {
  double sum = 0;
  for (float v : h) sum += v;
  std::printf("checked %zu values\n", h.size());
  give_up(2, code, sum);
}

int main(int argc, char** argv) {
  const int code = argc > 1 ? std::atoi(argv[1]) : 3;
  float* d = nullptr;
  CHECK(cudaMalloc(&d, kN * sizeof(float)));
  nvtxRangePushA("prepare");
  ramp<<<kN / 256, 256>>>(d, kN);
  nvtxRangePop();
  nvtxRangePushA("reduce");
  halve<<<kN / 256, 256>>>(d, kN);
  halve<<<kN / 256, 256>>>(d, kN);
  CHECK(cudaGetLastError());
  std::vector<float> h(kN);
  CHECK(cudaMemcpy(h.data(), d, kN * sizeof(float), cudaMemcpyDeviceToHost));
  validate(h, code);   // still inside "reduce": the range never ends
}
