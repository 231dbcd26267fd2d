// A pipeline recorded by stream capture and replayed as a CUDA graph: a memset and three
// kernels captured once, the graph launched five times, plus one ordinary launch of the
// first kernel outside the graph. A profiler must see the kernels when the graph runs,
// not when they are captured.
//   graph_capture    prints the result checksum; exit 0 when it is right
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

__global__ void fill(float* x, int n, float v) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = v;
}
__global__ void axpy(float* y, const float* x, int n, float a) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] += a * x[i];
}
__global__ void square(float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = y[i] * y[i];
}

int main() {
  float *x = nullptr, *y = nullptr;
  CHECK(cudaMalloc(&x, kN * sizeof(float)));
  CHECK(cudaMalloc(&y, kN * sizeof(float)));
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));
  fill<<<kN / 256, 256, 0, stream>>>(x, kN, 2.0f);   // outside the graph
  CHECK(cudaGetLastError());

  cudaGraph_t graph;
  CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  CHECK(cudaMemsetAsync(y, 0, kN * sizeof(float), stream));
  fill<<<kN / 256, 256, 0, stream>>>(x, kN, 3.0f);
  axpy<<<kN / 256, 256, 0, stream>>>(y, x, kN, 0.5f);
  square<<<kN / 256, 256, 0, stream>>>(y, kN);
  CHECK(cudaStreamEndCapture(stream, &graph));
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  for (int r = 0; r < 5; ++r) CHECK(cudaGraphLaunch(exec, stream));
  CHECK(cudaStreamSynchronize(stream));

  std::vector<float> h(kN);
  CHECK(cudaMemcpy(h.data(), y, kN * sizeof(float), cudaMemcpyDeviceToHost));
  double sum = 0;
  for (float v : h) sum += v;
  std::printf("graph launched 5 times; sum of y = %.1f\n", sum);
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(graph));
  CHECK(cudaStreamDestroy(stream));
  CHECK(cudaFree(x));
  CHECK(cudaFree(y));
  return sum == 2.25 * kN ? 0 : 1;
}
