// The fake driver's calls that build graphs and read them back, and the small ones around
// them: error names, the context, functions' names and parameters, capture state, events
// (fake_graph_driver.h).
#include <algorithm>

#include "fake_graph_driver_state.h"

using namespace fake_driver::model;

extern "C" {

CUresult cuGetErrorName(CUresult error, const char** name) {
  *name = error == CUDA_SUCCESS ? "CUDA_SUCCESS" : error == CUDA_ERROR_INVALID_VALUE ? "CUDA_ERROR_INVALID_VALUE" : "CUDA_ERROR";
  return CUDA_SUCCESS;
}

CUresult cuCtxGetCurrent(CUcontext* context) {
  *context = reinterpret_cast<CUcontext>(1);
  return CUDA_SUCCESS;
}

// Functions only: these tests use no CUkernels.
CUresult cuKernelGetFunction(CUfunction*, CUkernel) { return CUDA_ERROR_INVALID_HANDLE; }
CUresult cuKernelGetName(const char**, CUkernel) { return CUDA_ERROR_INVALID_HANDLE; }
CUresult cuKernelGetParamInfo(CUkernel, std::size_t, std::size_t*, std::size_t*) { return CUDA_ERROR_INVALID_HANDLE; }

CUresult cuFuncGetParamInfo(CUfunction f, std::size_t index, std::size_t* offset, std::size_t* size) {
  if (index >= f->parameter_sizes.size()) return CUDA_ERROR_INVALID_VALUE;
  *offset = 0;
  for (std::size_t i = 0; i < index; ++i) *offset += f->parameter_sizes[i];
  *size = f->parameter_sizes[index];
  return CUDA_SUCCESS;
}

CUresult cuFuncGetName(const char** name, CUfunction f) {
  *name = f->name.c_str();
  return CUDA_SUCCESS;
}

CUresult cuFuncGetAttribute(int* value, CUfunction_attribute, CUfunction) {
  *value = 0;
  return CUDA_SUCCESS;
}

CUresult cuStreamIsCapturing(CUstream stream, CUstreamCaptureStatus* status) {
  *status = driver().capturing.count(stream) ? CU_STREAM_CAPTURE_STATUS_ACTIVE : CU_STREAM_CAPTURE_STATUS_NONE;
  return CUDA_SUCCESS;
}

CUresult cuGraphCreate(CUgraph* graph, unsigned int) {
  *graph = &driver().graphs.emplace_back();
  return CUDA_SUCCESS;
}

CUresult cuGraphAddKernelNode(CUgraphNode* out, CUgraph graph, const CUgraphNode* dependencies, std::size_t count,
                              const CUDA_KERNEL_NODE_PARAMS* params) {
  Work w;
  if (CUresult r = read_kernel(*params, w); r != CUDA_SUCCESS) return r;
  return add_node(out, graph, dependencies, count, std::move(w));
}

CUresult cuGraphAddMemsetNode(CUgraphNode* out, CUgraph graph, const CUgraphNode* dependencies, std::size_t count,
                              const CUDA_MEMSET_NODE_PARAMS* params, CUcontext) {
  Work w = of_type(CU_GRAPH_NODE_TYPE_MEMSET);
  w.set = *params;
  return add_node(out, graph, dependencies, count, std::move(w));
}

CUresult cuGraphAddMemcpyNode(CUgraphNode* out, CUgraph graph, const CUgraphNode* dependencies, std::size_t count,
                              const CUDA_MEMCPY3D* params, CUcontext) {
  Work w = of_type(CU_GRAPH_NODE_TYPE_MEMCPY);
  w.copy = *params;
  return add_node(out, graph, dependencies, count, std::move(w));
}

CUresult cuGraphAddEmptyNode(CUgraphNode* out, CUgraph graph, const CUgraphNode* dependencies, std::size_t count) {
  return add_node(out, graph, dependencies, count, Work{});
}

CUresult cuGraphAddHostNode(CUgraphNode* out, CUgraph graph, const CUgraphNode* dependencies, std::size_t count,
                            const CUDA_HOST_NODE_PARAMS* params) {
  Work w = of_type(CU_GRAPH_NODE_TYPE_HOST);
  w.host = *params;
  return add_node(out, graph, dependencies, count, std::move(w));
}

CUresult cuGraphAddEventRecordNode(CUgraphNode* out, CUgraph graph, const CUgraphNode* dependencies, std::size_t count,
                                   CUevent event) {
  Work w = of_type(CU_GRAPH_NODE_TYPE_EVENT_RECORD);
  w.event = event;
  return add_node(out, graph, dependencies, count, std::move(w));
}

CUresult cuGraphAddEventWaitNode(CUgraphNode* out, CUgraph graph, const CUgraphNode* dependencies, std::size_t count,
                                 CUevent event) {
  Work w = of_type(CU_GRAPH_NODE_TYPE_WAIT_EVENT);
  w.event = event;
  return add_node(out, graph, dependencies, count, std::move(w));
}

// As the driver does, the child graph is copied: later changes to it do not reach the node.
CUresult cuGraphAddChildGraphNode(CUgraphNode* out, CUgraph graph, const CUgraphNode* dependencies, std::size_t count,
                                  CUgraph child) {
  if (!graph_alive(child)) return CUDA_ERROR_INVALID_VALUE;
  Work w = of_type(CU_GRAPH_NODE_TYPE_GRAPH);
  w.child = embed(child, graph);
  return add_node(out, graph, dependencies, count, std::move(w));
}

CUresult cuGraphHostNodeGetParams(CUgraphNode node, CUDA_HOST_NODE_PARAMS* params) {
  if (!node_alive(node) || node->work.type != CU_GRAPH_NODE_TYPE_HOST) return CUDA_ERROR_INVALID_VALUE;
  *params = node->work.host;
  return CUDA_SUCCESS;
}

CUresult cuGraphEventRecordNodeGetEvent(CUgraphNode node, CUevent* event) {
  if (!node_alive(node) || node->work.type != CU_GRAPH_NODE_TYPE_EVENT_RECORD) return CUDA_ERROR_INVALID_VALUE;
  *event = node->work.event;
  return CUDA_SUCCESS;
}

CUresult cuGraphEventWaitNodeGetEvent(CUgraphNode node, CUevent* event) {
  if (!node_alive(node) || node->work.type != CU_GRAPH_NODE_TYPE_WAIT_EVENT) return CUDA_ERROR_INVALID_VALUE;
  *event = node->work.event;
  return CUDA_SUCCESS;
}

CUresult cuEventCreate(CUevent* event, unsigned int) {
  *event = &driver().events.emplace_back();
  return CUDA_SUCCESS;
}

CUresult cuEventDestroy(CUevent event) {
  if (!event || !event->alive) return CUDA_ERROR_INVALID_HANDLE;
  event->alive = false;
  return CUDA_SUCCESS;
}

CUresult cuGraphGetNodes(CUgraph graph, CUgraphNode* nodes, std::size_t* count) {
  if (!graph_alive(graph)) return CUDA_ERROR_INVALID_VALUE;
  if (nodes) std::copy_n(graph->nodes.begin(), std::min(*count, graph->nodes.size()), nodes);
  *count = graph->nodes.size();
  return CUDA_SUCCESS;
}

CUresult cuGraphGetEdges(CUgraph graph, CUgraphNode* from, CUgraphNode* to, CUgraphEdgeData*, std::size_t* count) {
  if (!graph_alive(graph)) return CUDA_ERROR_INVALID_VALUE;
  std::size_t edges = 0;
  for (CUgraphNode_st* n : graph->nodes)
    for (CUgraphNode_st* d : n->dependencies) {
      if (from && edges < *count) from[edges] = d, to[edges] = n;
      ++edges;
    }
  *count = edges;
  return CUDA_SUCCESS;
}

CUresult cuGraphNodeGetType(CUgraphNode node, CUgraphNodeType* type) {
  if (!node_alive(node)) return CUDA_ERROR_INVALID_VALUE;
  *type = node->work.type;
  return CUDA_SUCCESS;
}

CUresult cuGraphChildGraphNodeGetGraph(CUgraphNode node, CUgraph* graph) {
  if (!node_alive(node) || node->work.type != CU_GRAPH_NODE_TYPE_GRAPH) return CUDA_ERROR_INVALID_VALUE;
  *graph = node->work.child;
  return CUDA_SUCCESS;
}

CUresult cuGraphKernelNodeGetParams(CUgraphNode node, CUDA_KERNEL_NODE_PARAMS* params) {
  if (!node_alive(node) || node->work.type != CU_GRAPH_NODE_TYPE_KERNEL) return CUDA_ERROR_INVALID_VALUE;
  static thread_local std::vector<void*> pointers;   // valid until the next call, as the tests use them
  pointers.clear();
  for (auto& a : node->work.arguments) pointers.push_back(a.data());
  *params = CUDA_KERNEL_NODE_PARAMS{};
  params->func = node->work.function;
  params->gridDimX = node->work.grid, params->gridDimY = params->gridDimZ = 1;
  params->blockDimX = node->work.block, params->blockDimY = params->blockDimZ = 1;
  params->kernelParams = pointers.data();
  return CUDA_SUCCESS;
}

CUresult cuGraphKernelNodeGetAttribute(CUgraphNode node, CUkernelNodeAttrID, CUkernelNodeAttrValue* value) {
  if (!node_alive(node)) return CUDA_ERROR_INVALID_VALUE;
  *value = CUkernelNodeAttrValue{};
  return CUDA_SUCCESS;
}

CUresult cuGraphMemcpyNodeGetParams(CUgraphNode node, CUDA_MEMCPY3D* params) {
  if (!node_alive(node) || node->work.type != CU_GRAPH_NODE_TYPE_MEMCPY) return CUDA_ERROR_INVALID_VALUE;
  *params = node->work.copy;
  return CUDA_SUCCESS;
}

CUresult cuGraphMemsetNodeGetParams(CUgraphNode node, CUDA_MEMSET_NODE_PARAMS* params) {
  if (!node_alive(node) || node->work.type != CU_GRAPH_NODE_TYPE_MEMSET) return CUDA_ERROR_INVALID_VALUE;
  *params = node->work.set;
  return CUDA_SUCCESS;
}

}  // extern "C"
