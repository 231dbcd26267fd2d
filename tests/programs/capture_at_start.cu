// A program that captures its graph as soon as its context exists and prepares its input on
// the host while the capture is still open, as programs that record their GPU work first do.
// The capture is in global mode, so any other thread's driver call that may synchronize or
// allocate during those first moments would break it.
//   capture_at_start  prints the sum of the scaled input; exit 0 when right
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <thread>
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

__global__ void scale(float* v, int n, float by) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] *= by;
}

int main() {
  float* v = nullptr;
  CHECK(cudaMalloc(&v, kN * sizeof(float)));
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));
  cudaGraph_t graph;
  CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  scale<<<kN / 256, 256, 0, stream>>>(v, kN, 2.f);
  scale<<<kN / 256, 256, 0, stream>>>(v, kN, 0.5f);
  scale<<<kN / 256, 256, 0, stream>>>(v, kN, 3.f);
  // The input, made while the capture is open; the pause stands for reading it from disk.
  std::vector<float> host(kN);
  std::iota(host.begin(), host.end(), 0.f);
  std::this_thread::sleep_for(std::chrono::milliseconds(400));
  CHECK(cudaStreamEndCapture(stream, &graph));
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  CHECK(cudaMemcpy(v, host.data(), kN * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaGraphLaunch(exec, stream));
  CHECK(cudaStreamSynchronize(stream));
  CHECK(cudaMemcpy(host.data(), v, kN * sizeof(float), cudaMemcpyDeviceToHost));
  int wrong = 0;
  for (int i = 0; i < kN; ++i) wrong += host[i] != 3.f * static_cast<float>(i);
  double sum = std::accumulate(host.begin(), host.end(), 0.0);
  std::printf("sum %.0f; %d elements wrong\n", sum, wrong);
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(graph));
  CHECK(cudaStreamDestroy(stream));
  CHECK(cudaFree(v));
  return wrong == 0 ? 0 : 1;
}
