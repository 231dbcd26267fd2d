#include "graph_kernels.h"

#include <map>

#include "graph_order.h"

namespace labbook::profiler {

std::vector<CUgraphNode> graph_nodes_in_order(CUgraph graph) {
  std::size_t count = 0;
  if (cuGraphGetNodes(graph, nullptr, &count) != CUDA_SUCCESS || count == 0) return {};
  std::vector<CUgraphNode> nodes(count);
  if (cuGraphGetNodes(graph, nodes.data(), &count) != CUDA_SUCCESS) return {};
  nodes.resize(count);
  std::size_t edge_count = 0;
  std::vector<std::pair<std::size_t, std::size_t>> edges;
  if (cuGraphGetEdges(graph, nullptr, nullptr, nullptr, &edge_count) == CUDA_SUCCESS && edge_count > 0) {
    std::vector<CUgraphNode> from(edge_count), to(edge_count);
    std::vector<CUgraphEdgeData> data(edge_count);
    if (cuGraphGetEdges(graph, from.data(), to.data(), data.data(), &edge_count) == CUDA_SUCCESS) {
      std::map<CUgraphNode, std::size_t> index;
      for (std::size_t i = 0; i < nodes.size(); ++i) index[nodes[i]] = i;
      for (std::size_t e = 0; e < edge_count; ++e) {
        const auto f = index.find(from[e]), t = index.find(to[e]);
        if (f != index.end() && t != index.end()) edges.emplace_back(f->second, t->second);
      }
    }
  }
  std::vector<CUgraphNode> ordered;
  for (std::size_t i : topological_order(nodes.size(), edges)) ordered.push_back(nodes[i]);
  return ordered;
}

namespace {

void flatten(CUgraph graph, std::size_t parent, std::vector<CUgraphNode>& flattened, std::vector<std::size_t>& enclosing) {
  for (CUgraphNode node : graph_nodes_in_order(graph)) {
    const std::size_t at = flattened.size();
    flattened.push_back(node);
    enclosing.push_back(parent);
    CUgraphNodeType type;
    CUgraph child = nullptr;
    if (cuGraphNodeGetType(node, &type) == CUDA_SUCCESS && type == CU_GRAPH_NODE_TYPE_GRAPH &&
        cuGraphChildGraphNodeGetGraph(node, &child) == CUDA_SUCCESS)
      flatten(child, at, flattened, enclosing);
  }
}

}  // namespace

std::vector<CUgraphNode> graph_nodes_flattened(CUgraph graph, std::vector<std::size_t>* enclosing) {
  std::vector<CUgraphNode> flattened;
  std::vector<std::size_t> parents;
  flatten(graph, kOwnNode, flattened, parents);
  if (enclosing) *enclosing = std::move(parents);
  return flattened;
}

std::vector<std::string> graph_kernel_names(CUgraph graph) {
  std::vector<std::string> names;
  for (CUgraphNode node : graph_nodes_flattened(graph)) {
    CUgraphNodeType type;
    if (cuGraphNodeGetType(node, &type) != CUDA_SUCCESS || type != CU_GRAPH_NODE_TYPE_KERNEL) continue;
    CUDA_KERNEL_NODE_PARAMS params{};
    const char* name = nullptr;
    if (cuGraphKernelNodeGetParams(node, &params) == CUDA_SUCCESS) {
      if (params.func) cuFuncGetName(&name, params.func);
      else if (params.kern) cuKernelGetName(&name, params.kern);
    }
    names.push_back(name ? name : "");
  }
  return names;
}

bool stream_is_capturing(CUstream stream) {
  CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_NONE;
  return cuStreamIsCapturing(stream, &status) == CUDA_SUCCESS && status == CU_STREAM_CAPTURE_STATUS_ACTIVE;
}

}  // namespace labbook::profiler
