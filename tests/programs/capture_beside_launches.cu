// Two host threads: one captures a graph in global mode and holds the capture open while it
// prepares its input, the other keeps launching work into a stream of its own meanwhile, as a
// program with a producer thread and a thread recording its graph does. Launches into another
// stream are allowed during a global capture; anything that synchronizes is not, so a tool
// that synchronizes around those launches would break the capture.
//   capture_beside_launches  prints both threads' results; exit 0 when right
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
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

constexpr int kN = 1 << 18, kLaunches = 16;

__global__ void add_one(int* v, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] += 1;
}

__global__ void double_it(int* v, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] *= 2;
}

int main() {
  int *captured = nullptr, *streamed = nullptr;
  CHECK(cudaMalloc(&captured, kN * sizeof(int)));
  CHECK(cudaMalloc(&streamed, kN * sizeof(int)));
  CHECK(cudaMemset(captured, 0, kN * sizeof(int)));
  CHECK(cudaMemset(streamed, 0, kN * sizeof(int)));
  cudaStream_t capture_stream, work_stream;
  CHECK(cudaStreamCreateWithFlags(&capture_stream, cudaStreamNonBlocking));
  CHECK(cudaStreamCreateWithFlags(&work_stream, cudaStreamNonBlocking));
  // Each kernel runs once before the capture, so that loading it happens outside it.
  double_it<<<kN / 256, 256, 0, capture_stream>>>(captured, kN);
  add_one<<<kN / 256, 256, 0, work_stream>>>(streamed, kN);
  CHECK(cudaDeviceSynchronize());

  std::atomic<bool> capturing{false}, captured_done{false};
  cudaGraphExec_t exec = nullptr;
  std::thread recorder([&] {
    cudaGraph_t graph;
    CHECK(cudaStreamBeginCapture(capture_stream, cudaStreamCaptureModeGlobal));
    capturing = true;
    add_one<<<kN / 256, 256, 0, capture_stream>>>(captured, kN);
    double_it<<<kN / 256, 256, 0, capture_stream>>>(captured, kN);
    std::this_thread::sleep_for(std::chrono::milliseconds(300));   // stands for preparing input
    CHECK(cudaStreamEndCapture(capture_stream, &graph));
    captured_done = true;
    CHECK(cudaGraphInstantiate(&exec, graph, 0));
    CHECK(cudaGraphDestroy(graph));
  });
  std::thread producer([&] {
    while (!capturing) std::this_thread::yield();
    for (int i = 0; i < kLaunches; ++i) add_one<<<kN / 256, 256, 0, work_stream>>>(streamed, kN);
    CHECK(cudaGetLastError());
    while (!captured_done) std::this_thread::yield();   // nothing that synchronizes until then
    CHECK(cudaStreamSynchronize(work_stream));
  });
  recorder.join();
  producer.join();
  CHECK(cudaGraphLaunch(exec, capture_stream));
  CHECK(cudaStreamSynchronize(capture_stream));

  std::vector<int> a(kN), b(kN);
  CHECK(cudaMemcpy(a.data(), captured, kN * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(b.data(), streamed, kN * sizeof(int), cudaMemcpyDeviceToHost));
  int wrong = 0;
  for (int i = 0; i < kN; ++i) wrong += (a[i] != 2) + (b[i] != 1 + kLaunches);
  std::printf("graph: %d, stream: %d; %d elements wrong\n", a[0], b[0], wrong);
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaStreamDestroy(capture_stream));
  CHECK(cudaStreamDestroy(work_stream));
  CHECK(cudaFree(captured));
  CHECK(cudaFree(streamed));
  return wrong == 0 ? 0 : 1;
}
