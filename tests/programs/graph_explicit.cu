// A CUDA graph built with the explicit API: a memset node, then two independent kernel
// branches that a third kernel joins, launched three times. The two branches may run in
// either order, or at once.
//   graph_explicit   prints the result checksum; exit 0 when it is right
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

__global__ void iota(int* a, int n, int start) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = start + (i & 1023);
}
__global__ void twice(int* b, const int* a, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) b[i] = 2 * a[i];
}
__global__ void join(int* out, const int* a, const int* b, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] += a[i] + b[i];
}

int main() {
  int *a = nullptr, *b = nullptr, *c = nullptr, *out = nullptr;
  CHECK(cudaMalloc(&a, kN * sizeof(int)));
  CHECK(cudaMalloc(&b, kN * sizeof(int)));
  CHECK(cudaMalloc(&c, kN * sizeof(int)));
  CHECK(cudaMalloc(&out, kN * sizeof(int)));
  int n = kN, start_a = 1, start_c = 5;

  cudaGraph_t graph;
  CHECK(cudaGraphCreate(&graph, 0));
  cudaMemsetParams memset{};
  memset.dst = out;
  memset.value = 0;
  memset.elementSize = sizeof(int);
  memset.width = kN;
  memset.height = 1;
  cudaGraphNode_t zero, fill_a, fill_c, double_c, joined;
  CHECK(cudaGraphAddMemsetNode(&zero, graph, nullptr, 0, &memset));

  cudaKernelNodeParams p{};
  p.gridDim = dim3(kN / 256);
  p.blockDim = dim3(256);
  void* iota_a[] = {&a, &n, &start_a};
  p.func = reinterpret_cast<void*>(iota);
  p.kernelParams = iota_a;
  CHECK(cudaGraphAddKernelNode(&fill_a, graph, &zero, 1, &p));   // branch 1
  void* iota_c[] = {&c, &n, &start_c};
  p.kernelParams = iota_c;
  CHECK(cudaGraphAddKernelNode(&fill_c, graph, &zero, 1, &p));   // branch 2 ...
  void* twice_args[] = {&b, &c, &n};
  p.func = reinterpret_cast<void*>(twice);
  p.kernelParams = twice_args;
  CHECK(cudaGraphAddKernelNode(&double_c, graph, &fill_c, 1, &p));   // ... then this
  void* join_args[] = {&out, &a, &b, &n};
  p.func = reinterpret_cast<void*>(join);
  p.kernelParams = join_args;
  cudaGraphNode_t before_join[] = {fill_a, double_c};
  CHECK(cudaGraphAddKernelNode(&joined, graph, before_join, 2, &p));

  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  for (int r = 0; r < 3; ++r) CHECK(cudaGraphLaunch(exec, 0));
  CHECK(cudaDeviceSynchronize());

  std::vector<int> h(kN);
  CHECK(cudaMemcpy(h.data(), out, kN * sizeof(int), cudaMemcpyDeviceToHost));
  long long sum = 0, expected = 0;
  for (int i = 0; i < kN; ++i) {
    sum += h[i];
    expected += (1 + (i & 1023)) + 2 * (5 + (i & 1023));
  }
  std::printf("explicit graph launched 3 times; sum = %lld\n", sum);
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(graph));
  for (int* ptr : {a, b, c, out}) CHECK(cudaFree(ptr));
  return sum == expected ? 0 : 1;
}
