// A captured graph with a host function between two kernels, as programs do to hand results
// to the CPU without a synchronize: kernel, cudaLaunchHostFunc, kernel, launched four times.
// In a metrics run labbook runs the host function itself, in its place between the kernels.
//   graph_host_node  prints how often the host function ran and the result; exit 0 when right
#include <atomic>
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

constexpr int kN = 1 << 16;
std::atomic<int> g_host_calls{0};

__global__ void increment(int* v, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] += 1;
}

void CUDART_CB count_call(void*) { ++g_host_calls; }

int main() {
  int* v = nullptr;
  CHECK(cudaMalloc(&v, kN * sizeof(int)));
  CHECK(cudaMemset(v, 0, kN * sizeof(int)));
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));
  cudaGraph_t graph;
  CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  increment<<<kN / 256, 256, 0, stream>>>(v, kN);
  CHECK(cudaLaunchHostFunc(stream, count_call, nullptr));
  increment<<<kN / 256, 256, 0, stream>>>(v, kN);
  CHECK(cudaStreamEndCapture(stream, &graph));
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  CHECK(cudaGraphDestroy(graph));
  for (int r = 0; r < 4; ++r) CHECK(cudaGraphLaunch(exec, stream));
  CHECK(cudaStreamSynchronize(stream));
  std::vector<int> h(kN);
  CHECK(cudaMemcpy(h.data(), v, kN * sizeof(int), cudaMemcpyDeviceToHost));
  int wrong = 0;
  for (int x : h) wrong += x != 8;
  std::printf("host function ran %d times; %d elements wrong\n", g_host_calls.load(), wrong);
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaStreamDestroy(stream));
  CHECK(cudaFree(v));
  return wrong == 0 && g_host_calls == 4 ? 0 : 1;
}
