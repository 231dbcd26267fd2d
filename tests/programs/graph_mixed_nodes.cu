// A CUDA graph of every kind of node labbook runs itself in a metrics run: kernels, a memset,
// a host function that reads what the first kernel wrote (as programs hand results to the CPU
// without a synchronize), an event recorded in the graph and waited on by a second stream's
// work after each launch, and a child graph holding a kernel, a host function and a child of
// its own. Launched three times.
//   graph_mixed_nodes   prints what the host functions saw and the checksum; exit 0 when right
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

constexpr int kN = 1 << 20;
constexpr int kLaunches = 3;

__global__ void fill(int* a, int n, int value) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] += value + (i & 7);
}
__global__ void scale_into(int* b, const int* a, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) b[i] = 3 * a[i];
}
__global__ void strided_sum(int* out, const int* b, int n) {   // reads b with a stride: more sectors
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n / 8) atomicAdd(out, b[(i * 8) % n]);
}

struct Seen {
  const int* pinned;   // mapped host memory the first kernel's value reaches
  std::vector<int> values;
};
std::atomic<int> g_inner_calls{0};

void CUDART_CB look(void* data) {   // runs after `copy_first` in graph order
  auto* seen = static_cast<Seen*>(data);
  seen->values.push_back(*seen->pinned);
}
void CUDART_CB count_inner(void*) { ++g_inner_calls; }

__global__ void copy_first(int* pinned, const int* a) { *pinned = a[0]; }

int main() {
  int *a, *b, *out, *pinned;
  CHECK(cudaMalloc(&a, kN * sizeof(int)));
  CHECK(cudaMalloc(&b, kN * sizeof(int)));
  CHECK(cudaMalloc(&out, sizeof(int)));
  CHECK(cudaHostAlloc(&pinned, sizeof(int), cudaHostAllocMapped));
  int* pinned_device = nullptr;
  CHECK(cudaHostGetDevicePointer(&pinned_device, pinned, 0));
  CHECK(cudaMemset(a, 0, kN * sizeof(int)));
  Seen seen{pinned, {}};
  const int n = kN, blocks = kN / 256;

  // grandchild: strided_sum; child: scale_into -> count_inner -> grandchild
  cudaGraph_t grandchild, child, graph;
  cudaGraphNode_t sum_node, scale_node, inner_host, nested;
  cudaKernelNodeParams k{};
  k.blockDim = dim3(256);
  CHECK(cudaGraphCreate(&grandchild, 0));
  void* sum_args[] = {&out, &b, const_cast<int*>(&n)};
  k.func = reinterpret_cast<void*>(strided_sum), k.gridDim = dim3(blocks / 8), k.kernelParams = sum_args;
  CHECK(cudaGraphAddKernelNode(&sum_node, grandchild, nullptr, 0, &k));
  CHECK(cudaGraphCreate(&child, 0));
  void* scale_args[] = {&b, &a, const_cast<int*>(&n)};
  k.func = reinterpret_cast<void*>(scale_into), k.gridDim = dim3(blocks), k.kernelParams = scale_args;
  CHECK(cudaGraphAddKernelNode(&scale_node, child, nullptr, 0, &k));
  cudaHostNodeParams inner{count_inner, nullptr};
  CHECK(cudaGraphAddHostNode(&inner_host, child, &scale_node, 1, &inner));
  CHECK(cudaGraphAddChildGraphNode(&nested, child, &inner_host, 1, grandchild));

  // graph: memset(out) -> fill -> copy_first -> look -> record(done) -> child
  cudaEvent_t done;
  CHECK(cudaEventCreateWithFlags(&done, cudaEventDisableTiming));
  CHECK(cudaGraphCreate(&graph, 0));
  cudaMemsetParams zero{};
  zero.dst = out, zero.value = 0, zero.elementSize = 4, zero.width = 1, zero.height = 1;
  cudaGraphNode_t set_node, fill_node, copy_node, host_node, record_node, child_node;
  CHECK(cudaGraphAddMemsetNode(&set_node, graph, nullptr, 0, &zero));
  int value = 5;
  void* fill_args[] = {&a, const_cast<int*>(&n), &value};
  k.func = reinterpret_cast<void*>(fill), k.gridDim = dim3(blocks), k.kernelParams = fill_args;
  CHECK(cudaGraphAddKernelNode(&fill_node, graph, &set_node, 1, &k));
  void* copy_args[] = {&pinned_device, &a};
  k.func = reinterpret_cast<void*>(copy_first), k.gridDim = dim3(1), k.blockDim = dim3(1), k.kernelParams = copy_args;
  CHECK(cudaGraphAddKernelNode(&copy_node, graph, &fill_node, 1, &k));
  cudaHostNodeParams outer{look, &seen};
  CHECK(cudaGraphAddHostNode(&host_node, graph, &copy_node, 1, &outer));
  CHECK(cudaGraphAddEventRecordNode(&record_node, graph, &host_node, 1, done));
  CHECK(cudaGraphAddChildGraphNode(&child_node, graph, &record_node, 1, child));
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  CHECK(cudaGraphDestroy(graph));
  CHECK(cudaGraphDestroy(child));
  CHECK(cudaGraphDestroy(grandchild));

  // A second graph waits on `done` before reading a: an event-wait node.
  cudaStream_t stream, other;
  CHECK(cudaStreamCreate(&stream));
  CHECK(cudaStreamCreate(&other));
  cudaGraph_t waiting;
  cudaGraphNode_t wait_node, after_wait;
  int *snapshot;
  CHECK(cudaMalloc(&snapshot, kN * sizeof(int)));
  CHECK(cudaGraphCreate(&waiting, 0));
  CHECK(cudaGraphAddEventWaitNode(&wait_node, waiting, nullptr, 0, done));
  void* snap_args[] = {&snapshot, &a, const_cast<int*>(&n)};
  k.func = reinterpret_cast<void*>(scale_into), k.gridDim = dim3(blocks), k.blockDim = dim3(256), k.kernelParams = snap_args;
  CHECK(cudaGraphAddKernelNode(&after_wait, waiting, &wait_node, 1, &k));
  cudaGraphExec_t waiting_exec;
  CHECK(cudaGraphInstantiate(&waiting_exec, waiting, 0));
  CHECK(cudaGraphDestroy(waiting));

  for (int r = 0; r < kLaunches; ++r) {
    CHECK(cudaGraphLaunch(exec, stream));
    CHECK(cudaGraphLaunch(waiting_exec, other));
  }
  CHECK(cudaDeviceSynchronize());
  int sum = 0, first_snapshot = 0;
  CHECK(cudaMemcpy(&sum, out, sizeof sum, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&first_snapshot, snapshot, sizeof first_snapshot, cudaMemcpyDeviceToHost));
  // After r launches a[i] = r * (5 + (i & 7)); out sums 3 * a[8j] = 15 * kLaunches over kN / 8 elements.
  const int want_sum = 15 * kLaunches * (kN / 8);
  bool right = sum == want_sum && first_snapshot == 15 * kLaunches && g_inner_calls == kLaunches &&
               seen.values.size() == kLaunches;
  std::printf("the host function saw");
  for (std::size_t r = 0; r < seen.values.size(); ++r) {
    std::printf(" %d", seen.values[r]);
    right = right && seen.values[r] == 5 * static_cast<int>(r + 1);
  }
  std::printf("; the inner host function ran %d times; sum %d (want %d); snapshot %d\n", g_inner_calls.load(), sum,
              want_sum, first_snapshot);
  CHECK(cudaGraphExecDestroy(waiting_exec));
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaEventDestroy(done));
  return right ? 0 : 1;
}
