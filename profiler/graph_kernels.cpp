#include "graph_kernels.h"

namespace labbook::profiler {

std::vector<std::string> graph_kernel_names(CUgraph graph) {
  std::vector<std::string> names;
  std::size_t count = 0;
  if (cuGraphGetNodes(graph, nullptr, &count) != CUDA_SUCCESS || count == 0) return names;
  std::vector<CUgraphNode> nodes(count);
  if (cuGraphGetNodes(graph, nodes.data(), &count) != CUDA_SUCCESS) return names;
  for (CUgraphNode node : nodes) {
    CUgraphNodeType type;
    if (cuGraphNodeGetType(node, &type) != CUDA_SUCCESS) continue;
    if (type == CU_GRAPH_NODE_TYPE_KERNEL) {
      CUDA_KERNEL_NODE_PARAMS params{};
      const char* name = nullptr;
      if (cuGraphKernelNodeGetParams(node, &params) == CUDA_SUCCESS) {
        if (params.func) cuFuncGetName(&name, params.func);
        else if (params.kern) cuKernelGetName(&name, params.kern);
      }
      names.push_back(name ? name : "");
    } else if (type == CU_GRAPH_NODE_TYPE_GRAPH) {
      CUgraph child = nullptr;
      if (cuGraphChildGraphNodeGetGraph(node, &child) == CUDA_SUCCESS) {
        const auto inner = graph_kernel_names(child);
        names.insert(names.end(), inner.begin(), inner.end());
      }
    }
  }
  return names;
}

bool stream_is_capturing(CUstream stream) {
  CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_NONE;
  return cuStreamIsCapturing(stream, &status) == CUDA_SUCCESS && status == CU_STREAM_CAPTURE_STATUS_ACTIVE;
}

}  // namespace labbook::profiler
