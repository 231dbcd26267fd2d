// Four host threads, each with its own stream and NVTX range "thread<i>", each launching
// two kernels a few times over an array of its own size (2^18 >> i ints, so that a launch
// attributed to the wrong thread shows in its counts); the threads' launches interleave
// differently on every run.
//   host_threads     prints each thread's result in thread order; exit 0 when right
#include <nvtx3/nvToolsExt.h>

#include <string>
#include <thread>
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

constexpr int kThreads = 4, kN = 1 << 18, kRounds = 3;

__global__ void add_index(int* x, int n, int t) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += t;
}
__global__ void negate(int* x, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = -x[i];
}

long long work(int t) {
  const std::string name = "thread" + std::to_string(t);
  nvtxRangePushA(name.c_str());
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));
  int* d = nullptr;
  const int n = kN >> t;
  CHECK(cudaMalloc(&d, n * sizeof(int)));
  CHECK(cudaMemsetAsync(d, 0, n * sizeof(int), stream));
  for (int r = 0; r < kRounds; ++r) {
    add_index<<<n / 256, 256, 0, stream>>>(d, n, t + 1);
    negate<<<n / 256, 256, 0, stream>>>(d, n);
  }
  CHECK(cudaGetLastError());
  std::vector<int> h(n);
  CHECK(cudaMemcpyAsync(h.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost, stream));
  CHECK(cudaStreamSynchronize(stream));
  CHECK(cudaFree(d));
  CHECK(cudaStreamDestroy(stream));
  nvtxRangePop();
  long long sum = 0;
  for (int v : h) sum += v;
  return sum;
}

int main() {
  CHECK(cudaFree(nullptr));   // create the context before the threads race for it
  long long sums[kThreads];
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) threads.emplace_back([t, &sums] { sums[t] = work(t); });
  for (auto& th : threads) th.join();
  bool right = true;
  for (int t = 0; t < kThreads; ++t) {
    // x -> -(x + a) three times from 0: -a, then 0, then -a
    std::printf("thread%d: %lld\n", t, sums[t]);
    right = right && sums[t] == -static_cast<long long>(t + 1) * (kN >> t);
  }
  return right ? 0 : 1;
}
