// Which nodes of an executable graph labbook can keep from running, so that it launches them
// itself in a metrics run (profiler/graph_replay.h): kernel, memcpy and memset nodes are
// disabled (cuGraphNodeSetEnabled); host-function and event nodes cannot be, but can be given
// stand-ins (a host function that does nothing, events of labbook's own). And the nodes of a
// child graph: can the exec disable them through the handles of the child's embedded graph
// (cuGraphChildGraphNodeGetGraph)? Build and run on the GPU machine:
//   nvcc -o /tmp/graph_node_standins tools/probes/graph_node_standins.cu -lcuda && /tmp/graph_node_standins
// Each line: the call, what it returned, and which slots the graph's kernels wrote.
#include <cuda.h>
#include <cuda_runtime.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>

#include "probe_check.h"

__global__ void mark(int* slots, int slot) { atomicAdd(&slots[slot], 1); }

std::atomic<int> g_host{0};
void CUDA_CB host_call(void*) { ++g_host; }
void CUDA_CB nothing(void*) {}

const char* name(CUresult r) {
  const char* s = nullptr;
  cuGetErrorName(r, &s);
  return s ? s : "?";
}

int main() {
  CHECK(cudaFree(nullptr));
  int* slots = nullptr;
  CHECK(cudaMalloc(&slots, 8 * sizeof(int)));
  CHECK(cudaMemset(slots, 0, 8 * sizeof(int)));
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));
  cudaEvent_t program_event;
  CHECK(cudaEventCreate(&program_event));

  // child: mark(2) -> mark(3)
  cudaGraph_t child;
  CHECK(cudaGraphCreate(&child, 0));
  cudaGraphNode_t c2, c3;
  int s2 = 2, s3 = 3;
  void* a2[] = {&slots, &s2};
  void* a3[] = {&slots, &s3};
  cudaKernelNodeParams kp{};
  kp.func = reinterpret_cast<void*>(mark);
  kp.gridDim = dim3(1), kp.blockDim = dim3(32);
  kp.kernelParams = a2;
  CHECK(cudaGraphAddKernelNode(&c2, child, nullptr, 0, &kp));
  kp.kernelParams = a3;
  CHECK(cudaGraphAddKernelNode(&c3, child, &c2, 1, &kp));

  // parent: mark(0) -> host -> record -> wait -> child -> mark(1)
  cudaGraph_t graph;
  CHECK(cudaGraphCreate(&graph, 0));
  cudaGraphNode_t k0, host, record, wait, child_node, k1;
  int s0 = 0, s1 = 1;
  void* a0[] = {&slots, &s0};
  void* a1[] = {&slots, &s1};
  kp.kernelParams = a0;
  CHECK(cudaGraphAddKernelNode(&k0, graph, nullptr, 0, &kp));
  cudaHostNodeParams hp{host_call, nullptr};
  CHECK(cudaGraphAddHostNode(&host, graph, &k0, 1, &hp));
  CHECK(cudaGraphAddEventRecordNode(&record, graph, &host, 1, program_event));
  CHECK(cudaGraphAddEventWaitNode(&wait, graph, &record, 1, program_event));
  CHECK(cudaGraphAddChildGraphNode(&child_node, graph, &wait, 1, child));
  kp.kernelParams = a1;
  CHECK(cudaGraphAddKernelNode(&k1, graph, &child_node, 1, &kp));
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, graph, 0));

  CUgraph embedded = nullptr;
  CHECK(cuGraphChildGraphNodeGetGraph(child_node, &embedded));
  size_t count = 0;
  CHECK(cuGraphGetNodes(embedded, nullptr, &count));
  CUgraphNode inner[8];
  CHECK(cuGraphGetNodes(embedded, inner, &count));
  std::printf("embedded graph %p (child %p): %zu nodes\n", static_cast<void*>(embedded), static_cast<void*>(child), count);

  CUevent standin_record, standin_wait;
  CHECK(cuEventCreate(&standin_record, CU_EVENT_DISABLE_TIMING));
  CHECK(cuEventCreate(&standin_wait, CU_EVENT_DISABLE_TIMING));
  CUDA_HOST_NODE_PARAMS quiet{nothing, nullptr};
  const auto exec_h = reinterpret_cast<CUgraphExec>(exec);
  std::printf("disable k0: %s\n", name(cuGraphNodeSetEnabled(exec_h, k0, 0)));
  std::printf("disable k1: %s\n", name(cuGraphNodeSetEnabled(exec_h, k1, 0)));
  std::printf("disable host node: %s\n", name(cuGraphNodeSetEnabled(exec_h, host, 0)));
  std::printf("host stand-in: %s\n", name(cuGraphExecHostNodeSetParams(exec_h, host, &quiet)));
  std::printf("record stand-in: %s\n", name(cuGraphExecEventRecordNodeSetEvent(exec_h, record, standin_record)));
  std::printf("wait stand-in (never recorded): %s\n", name(cuGraphExecEventWaitNodeSetEvent(exec_h, wait, standin_wait)));
  for (size_t i = 0; i < count; ++i)
    std::printf("disable embedded node %zu: %s\n", i, name(cuGraphNodeSetEnabled(exec_h, inner[i], 0)));
  std::printf("disable child's own node c2: %s\n", name(cuGraphNodeSetEnabled(exec_h, c2, 0)));
  std::printf("disable the child-graph node: %s\n", name(cuGraphNodeSetEnabled(exec_h, child_node, 0)));
  unsigned enabled = 7;
  std::printf("get enabled embedded 0: %s -> %u\n", name(cuGraphNodeGetEnabled(exec_h, inner[0], &enabled)), enabled);

  CHECK(cudaGraphLaunch(exec, stream));
  CHECK(cudaStreamSynchronize(stream));
  int h[8];
  CHECK(cudaMemcpy(h, slots, sizeof h, cudaMemcpyDeviceToHost));
  std::printf("after one launch: slots %d %d %d %d; host function ran %d times; program event %s\n", h[0], h[1], h[2],
              h[3], g_host.load(), cudaEventQuery(program_event) == cudaSuccess ? "complete" : "not complete");
  // The stand-ins as replay would use them: the host function, the events, in stream order.
  CHECK(cuLaunchHostFunc(reinterpret_cast<CUstream>(stream), host_call, nullptr));
  CHECK(cuEventRecord(reinterpret_cast<CUevent>(program_event), reinterpret_cast<CUstream>(stream)));
  CHECK(cuStreamWaitEvent(reinterpret_cast<CUstream>(stream), reinterpret_cast<CUevent>(program_event), 0));
  CHECK(cudaStreamSynchronize(stream));
  std::printf("after replaying host and events: host function ran %d times\n", g_host.load());

  // cuGraphExecUpdate: do the stand-ins survive an update from the same graph?
  CUgraphExecUpdateResultInfo info{};
  std::printf("update from the graph: %s\n", name(cuGraphExecUpdate(exec_h, reinterpret_cast<CUgraph>(graph), &info)));
  CHECK(cudaGraphLaunch(exec, stream));
  CHECK(cudaStreamSynchronize(stream));
  CHECK(cudaMemcpy(h, slots, sizeof h, cudaMemcpyDeviceToHost));
  std::printf("after the update and a launch: slots %d %d %d %d; host function ran %d times\n", h[0], h[1], h[2], h[3],
              g_host.load());
  return 0;
}
