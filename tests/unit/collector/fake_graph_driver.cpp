#include "fake_graph_driver.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <set>

// cuda.h only declares these handle types; the fake driver defines them.
struct CUfunc_st {
  std::string name;
  std::vector<std::size_t> parameter_sizes;
};

/// An event: the program's (fake_driver::event(), named in work()) or labbook's (cuEventCreate).
struct CUevent_st {
  int program_id = -1;   // -1: not the program's
  bool alive = true;
};

namespace {

/// What a node does: a kernel with its own copy of the argument bytes, a memset or memcpy, a
/// host function, an event recorded or waited on, or a child graph (its embedded copy).
struct Work {
  CUgraphNodeType type = CU_GRAPH_NODE_TYPE_EMPTY;
  CUfunc_st* function = nullptr;
  unsigned grid = 1, block = 1;   // x only: enough for the tests
  std::vector<std::vector<unsigned char>> arguments;
  CUDA_MEMSET_NODE_PARAMS set{};
  CUDA_MEMCPY3D copy{};
  CUDA_HOST_NODE_PARAMS host{};
  CUevent event = nullptr;
  CUgraph child = nullptr;
};

Work of_type(CUgraphNodeType type) {
  Work w;
  w.type = type;
  return w;
}

}  // namespace

struct CUgraphNode_st {
  CUgraph_st* graph = nullptr;
  Work work;
  std::vector<CUgraphNode_st*> dependencies;
};

struct CUgraph_st {
  std::vector<CUgraphNode_st*> nodes;   // creation order
  bool alive = true;
  CUgraph_st* parent = nullptr;   // a child graph node's embedded graph dies with its parent
};

struct CUgraphExec_st {
  struct Node {
    CUgraphNode_st* instantiated_from = nullptr;
    CUgraphNode_st* updated_from = nullptr;
    Work work;
    bool enabled = true;
    std::vector<std::size_t> dependencies;   // positions in `nodes`, in edge order
  };
  std::vector<Node> nodes;   // creation order: a topological order
  cuuint64_t flags = 0;
  bool alive = true;
};

namespace {

struct Driver {
  std::deque<CUfunc_st> functions;
  std::deque<CUgraph_st> graphs;
  std::deque<CUgraphNode_st> nodes;
  std::deque<CUgraphExec_st> execs;
  std::deque<CUevent_st> events;
  std::vector<std::string> work;
  std::size_t work_by_graph_launches = 0;
  std::set<CUgraphNode> failing;
  std::set<CUstream> capturing;
  fake_driver::Callback callback;
  bool accept_update_handles = false;
};
Driver& driver() {
  static Driver d;
  return d;
}

bool graph_alive(CUgraph graph) { return graph && graph->alive && (!graph->parent || graph_alive(graph->parent)); }

bool node_alive(CUgraphNode node) { return node && graph_alive(node->graph); }

std::string hex(const std::vector<unsigned char>& bytes) {
  std::string s = "0x";
  char digits[3];
  for (unsigned char b : bytes) {
    std::snprintf(digits, sizeof digits, "%02x", b);
    s += digits;
  }
  return s;
}

void log(const Work& w, CUstream stream) {
  std::string line;
  if (w.type == CU_GRAPH_NODE_TYPE_KERNEL) {
    line = w.function->name + "<<<" + std::to_string(w.grid) + "," + std::to_string(w.block) + ">>>(";
    for (std::size_t i = 0; i < w.arguments.size(); ++i) line += (i ? ", " : "") + hex(w.arguments[i]);
    line += ")";
  } else if (w.type == CU_GRAPH_NODE_TYPE_MEMSET) {
    line = "memset" + std::to_string(8 * w.set.elementSize) + " " + std::to_string(w.set.dst) + " = " +
           std::to_string(w.set.value) + " x " + std::to_string(w.set.width) + "x" + std::to_string(w.set.height) +
           " pitch " + std::to_string(w.set.height > 1 ? w.set.pitch : 0);
  } else if (w.type == CU_GRAPH_NODE_TYPE_MEMCPY) {
    line = "memcpy " + std::to_string(w.copy.dstDevice) + " <- " + std::to_string(w.copy.srcDevice) + " " +
           std::to_string(w.copy.WidthInBytes) + " bytes";
  } else if (w.type == CU_GRAPH_NODE_TYPE_HOST) {
    w.host.fn(w.host.userData);   // the function says what it does through fake_driver::note()
    return;
  } else if (w.type == CU_GRAPH_NODE_TYPE_EVENT_RECORD || w.type == CU_GRAPH_NODE_TYPE_WAIT_EVENT) {
    const char* what = w.type == CU_GRAPH_NODE_TYPE_EVENT_RECORD ? "record" : "wait on";
    if (!w.event->alive) line = std::string(what) + " a destroyed event";
    else if (w.event->program_id < 0) return;   // labbook's own
    else line = std::string(what) + " event " + std::to_string(w.event->program_id);
  } else {
    return;
  }
  driver().work.push_back(line + " on stream " + std::to_string(reinterpret_cast<std::uintptr_t>(stream)));
}

/// The argument bytes in an `extra` array (CU_LAUNCH_PARAM_BUFFER_POINTER, its size, END),
/// split by parameter size; false when the array says something else.
bool read_extra(void** extra, const CUfunc_st& f, std::vector<std::vector<unsigned char>>& arguments) {
  if (extra[0] != CU_LAUNCH_PARAM_BUFFER_POINTER || extra[2] != CU_LAUNCH_PARAM_BUFFER_SIZE ||
      extra[4] != CU_LAUNCH_PARAM_END)
    return false;
  const auto* bytes = static_cast<const unsigned char*>(extra[1]);
  const std::size_t size = *static_cast<const std::size_t*>(extra[3]);
  std::size_t offset = 0;
  for (std::size_t s : f.parameter_sizes) {
    if (offset + s > size) return false;
    arguments.emplace_back(bytes + offset, bytes + offset + s);
    offset += s;
  }
  return true;
}

CUresult read_kernel(const CUDA_KERNEL_NODE_PARAMS& p, Work& w) {
  if (!p.func || p.kern) return CUDA_ERROR_INVALID_VALUE;
  std::vector<std::vector<unsigned char>> arguments;
  if (p.extra) {
    if (!read_extra(p.extra, *p.func, arguments)) return CUDA_ERROR_INVALID_VALUE;
  } else {
    for (std::size_t i = 0; i < p.func->parameter_sizes.size(); ++i) {
      const auto* bytes = static_cast<const unsigned char*>(p.kernelParams[i]);
      arguments.emplace_back(bytes, bytes + p.func->parameter_sizes[i]);
    }
  }
  w.type = CU_GRAPH_NODE_TYPE_KERNEL;
  w.function = p.func;
  w.grid = p.gridDimX;
  w.block = p.blockDimX;
  w.arguments = std::move(arguments);
  return CUDA_SUCCESS;
}

CUresult add_node(CUgraphNode* out, CUgraph graph, const CUgraphNode* dependencies, std::size_t count, Work w) {
  if (!graph_alive(graph)) return CUDA_ERROR_INVALID_VALUE;
  CUgraphNode_st& n = driver().nodes.emplace_back();
  n.graph = graph;
  n.work = std::move(w);
  n.dependencies.assign(dependencies, dependencies + count);
  graph->nodes.push_back(&n);
  *out = &n;
  return CUDA_SUCCESS;
}

/// The exec's node that `node` names, or null.
CUgraphExec_st::Node* exec_node(CUgraphExec exec, CUgraphNode node) {
  if (!exec || !exec->alive || !node_alive(node)) return nullptr;
  for (auto& n : exec->nodes)
    if (n.instantiated_from == node || (driver().accept_update_handles && n.updated_from == node)) return &n;
  return nullptr;
}

/// A copy of `graph` embedded in a child graph node of `parent`, nested children copied too.
CUgraph embed(CUgraph graph, CUgraph parent) {
  CUgraph_st& copy = driver().graphs.emplace_back();
  copy.parent = parent;
  for (CUgraphNode_st* n : graph->nodes) {
    std::vector<CUgraphNode> dependencies;
    for (CUgraphNode_st* d : n->dependencies)
      dependencies.push_back(copy.nodes[std::find(graph->nodes.begin(), graph->nodes.end(), d) - graph->nodes.begin()]);
    Work w = n->work;
    if (w.type == CU_GRAPH_NODE_TYPE_GRAPH) w.child = embed(w.child, &copy);
    CUgraphNode added = nullptr;
    add_node(&added, &copy, dependencies.data(), dependencies.size(), std::move(w));
  }
  return &copy;
}

/// `graph`'s nodes, each child graph node followed by its embedded graph's, as an exec holds them.
void flatten(CUgraph graph, std::vector<CUgraphNode_st*>& nodes) {
  for (CUgraphNode_st* n : graph->nodes) {
    nodes.push_back(n);
    if (n->work.type == CU_GRAPH_NODE_TYPE_GRAPH) flatten(n->work.child, nodes);
  }
}

/// How many nodes `graph` holds, its children's included.
std::size_t flattened_size(CUgraph graph) {
  std::vector<CUgraphNode_st*> nodes;
  flatten(graph, nodes);
  return nodes.size();
}

/// Where `nodes` stand in `graph`'s creation order.
std::vector<std::size_t> positions(CUgraph graph, const std::vector<CUgraphNode_st*>& nodes) {
  std::vector<std::size_t> at;
  for (CUgraphNode_st* n : nodes)
    at.push_back(static_cast<std::size_t>(std::find(graph->nodes.begin(), graph->nodes.end(), n) - graph->nodes.begin()));
  return at;
}

/// Runs `body` between the callbacks CUPTI would give a subscriber at the call's entry and exit.
template <typename Params, typename Body>
CUresult traced(CUpti_CallbackId cbid, Params params, Body body) {
  CUresult result = CUDA_SUCCESS;
  CUpti_CallbackData d{};
  d.functionParams = &params;
  d.functionReturnValue = &result;
  d.callbackSite = CUPTI_API_ENTER;
  if (driver().callback) driver().callback(cbid, d);
  result = body();
  d.callbackSite = CUPTI_API_EXIT;
  if (driver().callback) driver().callback(cbid, d);
  return result;
}

bool can_disable(CUgraphNodeType type) {
  return type == CU_GRAPH_NODE_TYPE_KERNEL || type == CU_GRAPH_NODE_TYPE_MEMSET || type == CU_GRAPH_NODE_TYPE_MEMCPY;
}

}  // namespace

namespace fake_driver {

void reset() { driver() = Driver{}; }

CUfunction kernel(const std::string& name, std::vector<std::size_t> parameter_sizes) {
  return &driver().functions.emplace_back(CUfunc_st{name, std::move(parameter_sizes)});
}

const std::vector<std::string>& work() { return driver().work; }

std::size_t work_by_graph_launches() { return driver().work_by_graph_launches; }

void accept_update_handles(bool accept) { driver().accept_update_handles = accept; }

void fail_set_enabled(CUgraphNode node) { driver().failing.insert(node); }

void capture(CUstream stream) { driver().capturing.insert(stream); }

void subscribe(Callback callback) { driver().callback = std::move(callback); }

CUevent event() {
  CUevent_st& e = driver().events.emplace_back();
  e.program_id = static_cast<int>(driver().events.size());
  return &e;
}

void note(const std::string& line) { driver().work.push_back(line); }

CUgraphNode add_node_of_type(CUgraph graph, const std::vector<CUgraphNode>& after, CUgraphNodeType type) {
  CUgraphNode node = nullptr;
  add_node(&node, graph, after.data(), after.size(), of_type(type));
  return node;
}

}  // namespace fake_driver

namespace {
CUresult record_memset(CUdeviceptr dst, std::size_t pitch, unsigned value, unsigned element, std::size_t width,
                std::size_t height, CUstream stream) {
  Work w = of_type(CU_GRAPH_NODE_TYPE_MEMSET);
  w.set = CUDA_MEMSET_NODE_PARAMS{dst, pitch, value, element, width, height};
  log(w, stream);
  return CUDA_SUCCESS;
}
}  // namespace

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

CUresult cuGraphInstantiate(CUgraphExec* out, CUgraph graph, unsigned long long flags) {
  return traced(CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiateWithFlags, cuGraphInstantiateWithFlags_params{out, graph, flags},
                [&]() -> CUresult {
    if (!graph || !graph->alive) return CUDA_ERROR_INVALID_VALUE;
    CUgraphExec_st& e = driver().execs.emplace_back();
    e.flags = flags;
    std::vector<CUgraphNode_st*> flattened;
    flatten(graph, flattened);
    for (CUgraphNode_st* n : flattened) {
      std::vector<std::size_t> dependencies;
      for (CUgraphNode_st* d : n->dependencies)
        dependencies.push_back(static_cast<std::size_t>(std::find(flattened.begin(), flattened.end(), d) - flattened.begin()));
      e.nodes.push_back({n, nullptr, n->work, true, std::move(dependencies)});
    }
    *out = &e;
    return CUDA_SUCCESS;
  });
}

CUresult cuGraphExecGetFlags(CUgraphExec exec, cuuint64_t* flags) {
  *flags = exec->flags;
  return CUDA_SUCCESS;
}

CUresult cuGraphExecKernelNodeSetParams(CUgraphExec exec, CUgraphNode node, const CUDA_KERNEL_NODE_PARAMS* params) {
  return traced(CUPTI_DRIVER_TRACE_CBID_cuGraphExecKernelNodeSetParams_v2,
                cuGraphExecKernelNodeSetParams_v2_params{exec, node, params}, [&]() -> CUresult {
    CUgraphExec_st::Node* n = exec_node(exec, node);
    if (!n || n->work.type != CU_GRAPH_NODE_TYPE_KERNEL) return CUDA_ERROR_INVALID_VALUE;
    return read_kernel(*params, n->work);
  });
}

// The documented limits: a 2D memset keeps its shape, a 1D one its height.
CUresult cuGraphExecMemsetNodeSetParams(CUgraphExec exec, CUgraphNode node, const CUDA_MEMSET_NODE_PARAMS* params,
                                        CUcontext ctx) {
  return traced(CUPTI_DRIVER_TRACE_CBID_cuGraphExecMemsetNodeSetParams,
                cuGraphExecMemsetNodeSetParams_params{exec, node, params, ctx}, [&]() -> CUresult {
    CUgraphExec_st::Node* n = exec_node(exec, node);
    if (!n || n->work.type != CU_GRAPH_NODE_TYPE_MEMSET) return CUDA_ERROR_INVALID_VALUE;
    const CUDA_MEMSET_NODE_PARAMS& was = n->work.set;
    if (params->height != was.height || params->elementSize != was.elementSize) return CUDA_ERROR_INVALID_VALUE;
    if (was.height > 1 && (params->width != was.width || params->pitch != was.pitch)) return CUDA_ERROR_INVALID_VALUE;
    n->work.set = *params;
    return CUDA_SUCCESS;
  });
}

CUresult cuGraphExecMemcpyNodeSetParams(CUgraphExec exec, CUgraphNode node, const CUDA_MEMCPY3D* params, CUcontext ctx) {
  return traced(CUPTI_DRIVER_TRACE_CBID_cuGraphExecMemcpyNodeSetParams,
                cuGraphExecMemcpyNodeSetParams_params{exec, node, params, ctx}, [&]() -> CUresult {
    CUgraphExec_st::Node* n = exec_node(exec, node);
    if (!n || n->work.type != CU_GRAPH_NODE_TYPE_MEMCPY) return CUDA_ERROR_INVALID_VALUE;
    n->work.copy = *params;
    return CUDA_SUCCESS;
  });
}

CUresult cuGraphExecHostNodeSetParams(CUgraphExec exec, CUgraphNode node, const CUDA_HOST_NODE_PARAMS* params) {
  return traced(CUPTI_DRIVER_TRACE_CBID_cuGraphExecHostNodeSetParams,
                cuGraphExecHostNodeSetParams_params{exec, node, params}, [&]() -> CUresult {
    CUgraphExec_st::Node* n = exec_node(exec, node);
    if (!n || n->work.type != CU_GRAPH_NODE_TYPE_HOST) return CUDA_ERROR_INVALID_VALUE;
    n->work.host = *params;
    return CUDA_SUCCESS;
  });
}

namespace {
CUresult set_event(CUgraphExec exec, CUgraphNode node, CUevent event, CUgraphNodeType type) {
  CUgraphExec_st::Node* n = exec_node(exec, node);
  if (!n || n->work.type != type || !event || !event->alive) return CUDA_ERROR_INVALID_VALUE;
  n->work.event = event;
  return CUDA_SUCCESS;
}
}  // namespace

CUresult cuGraphExecEventRecordNodeSetEvent(CUgraphExec exec, CUgraphNode node, CUevent event) {
  return traced(CUPTI_DRIVER_TRACE_CBID_cuGraphExecEventRecordNodeSetEvent,
                cuGraphExecEventRecordNodeSetEvent_params{exec, node, event},
                [&] { return set_event(exec, node, event, CU_GRAPH_NODE_TYPE_EVENT_RECORD); });
}

CUresult cuGraphExecEventWaitNodeSetEvent(CUgraphExec exec, CUgraphNode node, CUevent event) {
  return traced(CUPTI_DRIVER_TRACE_CBID_cuGraphExecEventWaitNodeSetEvent,
                cuGraphExecEventWaitNodeSetEvent_params{exec, node, event},
                [&] { return set_event(exec, node, event, CU_GRAPH_NODE_TYPE_WAIT_EVENT); });
}

// A child graph node's new graph: the same shape, each node's work taken over, enabled states kept.
CUresult cuGraphExecChildGraphNodeSetParams(CUgraphExec exec, CUgraphNode node, CUgraph child) {
  return traced(CUPTI_DRIVER_TRACE_CBID_cuGraphExecChildGraphNodeSetParams,
                cuGraphExecChildGraphNodeSetParams_params{exec, node, child}, [&]() -> CUresult {
    CUgraphExec_st::Node* n = exec_node(exec, node);
    if (!n || n->work.type != CU_GRAPH_NODE_TYPE_GRAPH || !graph_alive(child)) return CUDA_ERROR_INVALID_VALUE;
    std::vector<CUgraphNode_st*> fresh;
    flatten(child, fresh);
    const std::size_t at = static_cast<std::size_t>(n - exec->nodes.data());
    if (fresh.size() != flattened_size(n->work.child)) return CUDA_ERROR_INVALID_VALUE;
    for (std::size_t i = 0; i < fresh.size(); ++i)
      if (exec->nodes[at + 1 + i].work.type != fresh[i]->work.type) return CUDA_ERROR_INVALID_VALUE;
    for (std::size_t i = 0; i < fresh.size(); ++i) {
      CUgraph embedded = exec->nodes[at + 1 + i].work.child;   // the exec's own copy stays
      exec->nodes[at + 1 + i].work = fresh[i]->work;
      exec->nodes[at + 1 + i].work.child = embedded;
    }
    return CUDA_SUCCESS;
  });
}

// The generic setter, read field by field (labbook copies the kernel parameters whole).
CUresult cuGraphExecNodeSetParams(CUgraphExec exec, CUgraphNode node, CUgraphNodeParams* params) {
  return traced(CUPTI_DRIVER_TRACE_CBID_cuGraphExecNodeSetParams, cuGraphExecNodeSetParams_params{exec, node, params},
                [&]() -> CUresult {
    CUgraphExec_st::Node* n = exec_node(exec, node);
    if (!n || n->work.type != params->type) return CUDA_ERROR_INVALID_VALUE;
    if (params->type == CU_GRAPH_NODE_TYPE_KERNEL) {
      const CUDA_KERNEL_NODE_PARAMS_v3& k = params->kernel;
      CUDA_KERNEL_NODE_PARAMS p{};
      p.func = k.func;
      p.gridDimX = k.gridDimX, p.blockDimX = k.blockDimX;
      p.kernelParams = k.kernelParams, p.extra = k.extra, p.kern = k.kern;
      return read_kernel(p, n->work);
    }
    if (params->type == CU_GRAPH_NODE_TYPE_MEMCPY) {
      n->work.copy = params->memcpy.copyParams;
      return CUDA_SUCCESS;
    }
    if (params->type == CU_GRAPH_NODE_TYPE_MEMSET) {
      const CUDA_MEMSET_NODE_PARAMS_v2& m = params->memset;
      if (m.height != n->work.set.height || m.elementSize != n->work.set.elementSize) return CUDA_ERROR_INVALID_VALUE;
      n->work.set = CUDA_MEMSET_NODE_PARAMS{m.dst, m.pitch, m.value, m.elementSize, m.width, m.height};
      return CUDA_SUCCESS;
    }
    if (params->type == CU_GRAPH_NODE_TYPE_HOST) {
      n->work.host = CUDA_HOST_NODE_PARAMS{params->host.fn, params->host.userData};
      return CUDA_SUCCESS;
    }
    if (params->type == CU_GRAPH_NODE_TYPE_EVENT_RECORD) return set_event(exec, node, params->eventRecord.event, params->type);
    if (params->type == CU_GRAPH_NODE_TYPE_WAIT_EVENT) return set_event(exec, node, params->eventWait.event, params->type);
    return CUDA_ERROR_INVALID_VALUE;
  });
}

CUresult cuGraphNodeSetEnabled(CUgraphExec exec, CUgraphNode node, unsigned int enabled) {
  return traced(CUPTI_DRIVER_TRACE_CBID_cuGraphNodeSetEnabled, cuGraphNodeSetEnabled_params{exec, node, enabled},
                [&]() -> CUresult {
    CUgraphExec_st::Node* n = exec_node(exec, node);
    if (!n || !can_disable(n->work.type) || driver().failing.count(node)) return CUDA_ERROR_INVALID_VALUE;
    n->enabled = enabled != 0;
    return CUDA_SUCCESS;
  });
}

CUresult cuGraphNodeGetEnabled(CUgraphExec exec, CUgraphNode node, unsigned int* enabled) {
  return traced(CUPTI_DRIVER_TRACE_CBID_cuGraphNodeGetEnabled, cuGraphNodeGetEnabled_params{exec, node, enabled},
                [&]() -> CUresult {
    CUgraphExec_st::Node* n = exec_node(exec, node);
    if (!n || !can_disable(n->work.type)) return CUDA_ERROR_INVALID_VALUE;
    *enabled = n->enabled ? 1 : 0;
    return CUDA_SUCCESS;
  });
}

// Pairs the update's nodes with the exec's as the documentation describes: sinks in creation
// order, then through each pair's dependencies in edge order. Parameters change, enabled
// states stay.
CUresult cuGraphExecUpdate(CUgraphExec exec, CUgraph graph, CUgraphExecUpdateResultInfo* info) {
  return traced(CUPTI_DRIVER_TRACE_CBID_cuGraphExecUpdate_v2, cuGraphExecUpdate_v2_params{exec, graph, info},
                [&]() -> CUresult {
    if (info) *info = CUgraphExecUpdateResultInfo{};
    if (!exec || !exec->alive || !graph_alive(graph) || graph->nodes.size() != exec->nodes.size())
      return CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE;
    for (const auto& n : exec->nodes)   // this model does not update child graphs
      if (n.work.type == CU_GRAPH_NODE_TYPE_GRAPH) return CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE;
    std::vector<std::vector<std::size_t>> deps;
    for (CUgraphNode_st* n : graph->nodes) deps.push_back(positions(graph, n->dependencies));
    std::vector<std::size_t> exec_sinks, graph_sinks;
    for (std::size_t i = 0; i < exec->nodes.size(); ++i) {
      bool exec_sink = true, graph_sink = true;
      for (std::size_t j = 0; j < exec->nodes.size(); ++j) {
        const auto& e = exec->nodes[j].dependencies;
        if (std::find(e.begin(), e.end(), i) != e.end()) exec_sink = false;
        if (std::find(deps[j].begin(), deps[j].end(), i) != deps[j].end()) graph_sink = false;
      }
      if (exec_sink) exec_sinks.push_back(i);
      if (graph_sink) graph_sinks.push_back(i);
    }
    if (exec_sinks.size() != graph_sinks.size()) return CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE;
    constexpr std::size_t kNone = ~std::size_t{0};
    std::vector<std::size_t> pair(exec->nodes.size(), kNone);
    std::vector<std::pair<std::size_t, std::size_t>> todo;
    for (std::size_t k = 0; k < exec_sinks.size(); ++k) todo.emplace_back(exec_sinks[k], graph_sinks[k]);
    while (!todo.empty()) {
      const auto [o, n] = todo.back();
      todo.pop_back();
      if (pair[o] != kNone) {
        if (pair[o] != n) return CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE;
        continue;
      }
      pair[o] = n;
      const auto& od = exec->nodes[o].dependencies;
      if (od.size() != deps[n].size() || exec->nodes[o].work.type != graph->nodes[n]->work.type)
        return CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE;
      for (std::size_t j = 0; j < od.size(); ++j) todo.emplace_back(od[j], deps[n][j]);
    }
    for (std::size_t o = 0; o < exec->nodes.size(); ++o) {
      exec->nodes[o].work = graph->nodes[pair[o]]->work;
      exec->nodes[o].updated_from = graph->nodes[pair[o]];
    }
    return CUDA_SUCCESS;
  });
}

CUresult cuGraphLaunch(CUgraphExec exec, CUstream stream) {
  return traced(CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch, cuGraphLaunch_params{exec, stream}, [&]() -> CUresult {
    if (!exec || !exec->alive) return CUDA_ERROR_INVALID_VALUE;
    if (driver().capturing.count(stream)) return CUDA_SUCCESS;   // captured: runs later, as a child graph
    for (const auto& n : exec->nodes) {
      if (!n.enabled || n.work.type == CU_GRAPH_NODE_TYPE_EMPTY || n.work.type == CU_GRAPH_NODE_TYPE_GRAPH) continue;
      const std::size_t before = driver().work.size();
      log(n.work, stream);
      if (n.work.type != CU_GRAPH_NODE_TYPE_HOST) driver().work_by_graph_launches += driver().work.size() - before;
    }
    return CUDA_SUCCESS;
  });
}

CUresult cuGraphExecDestroy(CUgraphExec exec) {
  return traced(CUPTI_DRIVER_TRACE_CBID_cuGraphExecDestroy, cuGraphExecDestroy_params{exec}, [&]() -> CUresult {
    exec->alive = false;
    return CUDA_SUCCESS;
  });
}

CUresult cuGraphDestroy(CUgraph graph) {
  return traced(CUPTI_DRIVER_TRACE_CBID_cuGraphDestroy, cuGraphDestroy_params{graph}, [&]() -> CUresult {
    graph->alive = false;
    return CUDA_SUCCESS;
  });
}

CUresult cuGraphNodeGetDependencies(CUgraphNode node, CUgraphNode* dependencies, CUgraphEdgeData*, std::size_t* count) {
  if (!node_alive(node)) return CUDA_ERROR_INVALID_VALUE;
  if (dependencies) std::copy_n(node->dependencies.begin(), std::min(*count, node->dependencies.size()), dependencies);
  *count = node->dependencies.size();
  return CUDA_SUCCESS;
}

CUresult cuLaunchKernelEx(const CUlaunchConfig* config, CUfunction f, void** arguments, void** extra) {
  if (extra) return CUDA_ERROR_INVALID_VALUE;
  CUDA_KERNEL_NODE_PARAMS p{};
  p.func = f;
  p.gridDimX = config->gridDimX;
  p.blockDimX = config->blockDimX;
  p.kernelParams = arguments;
  Work w;
  if (CUresult r = read_kernel(p, w); r != CUDA_SUCCESS) return r;
  log(w, config->hStream);
  return CUDA_SUCCESS;
}

CUresult cuLaunchHostFunc(CUstream, CUhostFn fn, void* data) {
  fn(data);
  return CUDA_SUCCESS;
}

CUresult cuEventRecord(CUevent event, CUstream stream) {
  Work w = of_type(CU_GRAPH_NODE_TYPE_EVENT_RECORD);
  w.event = event;
  log(w, stream);
  return CUDA_SUCCESS;
}

CUresult cuStreamWaitEvent(CUstream stream, CUevent event, unsigned int) {
  Work w = of_type(CU_GRAPH_NODE_TYPE_WAIT_EVENT);
  w.event = event;
  log(w, stream);
  return CUDA_SUCCESS;
}

CUresult cuMemcpy3DAsync(const CUDA_MEMCPY3D* copy, CUstream stream) {
  Work w = of_type(CU_GRAPH_NODE_TYPE_MEMCPY);
  w.copy = *copy;
  log(w, stream);
  return CUDA_SUCCESS;
}

CUresult cuMemsetD8Async(CUdeviceptr d, unsigned char v, std::size_t n, CUstream s) { return record_memset(d, 0, v, 1, n, 1, s); }
CUresult cuMemsetD16Async(CUdeviceptr d, unsigned short v, std::size_t n, CUstream s) { return record_memset(d, 0, v, 2, n, 1, s); }
CUresult cuMemsetD32Async(CUdeviceptr d, unsigned int v, std::size_t n, CUstream s) { return record_memset(d, 0, v, 4, n, 1, s); }
CUresult cuMemsetD2D8Async(CUdeviceptr d, std::size_t p, unsigned char v, std::size_t w, std::size_t h, CUstream s) {
  return record_memset(d, p, v, 1, w, h, s);
}
CUresult cuMemsetD2D16Async(CUdeviceptr d, std::size_t p, unsigned short v, std::size_t w, std::size_t h, CUstream s) {
  return record_memset(d, p, v, 2, w, h, s);
}
CUresult cuMemsetD2D32Async(CUdeviceptr d, std::size_t p, unsigned int v, std::size_t w, std::size_t h, CUstream s) {
  return record_memset(d, p, v, 4, w, h, s);
}

}  // extern "C"
