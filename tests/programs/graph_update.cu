// An executable graph changed between launches, as solvers do when a step size changes: two
// kernel nodes (scale x by a, then add x into y), launched; the scale factor changed with
// cudaGraphExecKernelNodeSetParams, launched again; the add node disabled with
// cudaGraphNodeSetEnabled, launched; enabled again, launched; the source graph destroyed and
// a new one of the same shape taken in with cudaGraphExecUpdate, launched.
//   graph_update     prints the result; exit 0 when it is right
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

constexpr int kN = 1 << 18;

__global__ void scale(float* x, int n, float a) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= a;
}
__global__ void accumulate(float* y, const float* x, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] += x[i];
}

int main() {
  float *x = nullptr, *y = nullptr;
  CHECK(cudaMalloc(&x, kN * sizeof(float)));
  CHECK(cudaMalloc(&y, kN * sizeof(float)));
  std::vector<float> ones(kN, 1.0f);
  CHECK(cudaMemcpy(x, ones.data(), kN * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(y, 0, kN * sizeof(float)));

  int n = kN;
  float a = 2.0f;
  cudaGraph_t graph;
  CHECK(cudaGraphCreate(&graph, 0));
  cudaKernelNodeParams p{};
  p.gridDim = dim3(kN / 256);
  p.blockDim = dim3(256);
  void* scale_args[] = {&x, &n, &a};
  p.func = reinterpret_cast<void*>(scale);
  p.kernelParams = scale_args;
  cudaGraphNode_t scale_node, add_node;
  CHECK(cudaGraphAddKernelNode(&scale_node, graph, nullptr, 0, &p));
  void* add_args[] = {&y, &x, &n};
  p.func = reinterpret_cast<void*>(accumulate);
  p.kernelParams = add_args;
  CHECK(cudaGraphAddKernelNode(&add_node, graph, &scale_node, 1, &p));
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, graph, 0));

  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));
  CHECK(cudaGraphLaunch(exec, stream));   // x = 2, y = 2
  a = 3.0f;                               // the graph holds its own copy: this changes nothing ...
  CHECK(cudaGraphLaunch(exec, stream));   // x = 4, y = 6
  p.func = reinterpret_cast<void*>(scale);
  p.kernelParams = scale_args;
  CHECK(cudaGraphExecKernelNodeSetParams(exec, scale_node, &p));   // ... until now
  CHECK(cudaGraphLaunch(exec, stream));   // x = 12, y = 18
  CHECK(cudaGraphNodeSetEnabled(exec, add_node, 0));
  CHECK(cudaGraphLaunch(exec, stream));   // x = 36, y = 18
  CHECK(cudaGraphNodeSetEnabled(exec, add_node, 1));
  CHECK(cudaGraphLaunch(exec, stream));   // x = 108, y = 126
  CHECK(cudaGraphDestroy(graph));   // only now: cudaGraphNodeSetEnabled needs the graph's nodes

  // The same two nodes built again with a = 0.5, taken in by cudaGraphExecUpdate, as programs
  // do each step instead of instantiating anew; the new graph is destroyed at once.
  a = 0.5f;
  cudaGraph_t next;
  CHECK(cudaGraphCreate(&next, 0));
  p.func = reinterpret_cast<void*>(scale);
  p.kernelParams = scale_args;
  CHECK(cudaGraphAddKernelNode(&scale_node, next, nullptr, 0, &p));
  p.func = reinterpret_cast<void*>(accumulate);
  p.kernelParams = add_args;
  CHECK(cudaGraphAddKernelNode(&add_node, next, &scale_node, 1, &p));
  cudaGraphExecUpdateResultInfo update{};
  CHECK(cudaGraphExecUpdate(exec, next, &update));
  CHECK(cudaGraphDestroy(next));
  CHECK(cudaGraphLaunch(exec, stream));   // x = 54, y = 180
  CHECK(cudaStreamSynchronize(stream));

  std::vector<float> hx(kN), hy(kN);
  CHECK(cudaMemcpy(hx.data(), x, kN * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hy.data(), y, kN * sizeof(float), cudaMemcpyDeviceToHost));
  int wrong = 0;
  for (int i = 0; i < kN; ++i) wrong += hx[i] != 54.0f || hy[i] != 180.0f;
  std::printf("graph changed between 6 launches: x = %.0f, y = %.0f, %d wrong\n", hx[0], hy[0], wrong);
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaStreamDestroy(stream));
  CHECK(cudaFree(x));
  CHECK(cudaFree(y));
  return wrong == 0 ? 0 : 1;
}
