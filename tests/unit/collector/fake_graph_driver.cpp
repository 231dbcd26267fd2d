// The fake driver's model helpers and the test API of fake_graph_driver.h; the driver calls
// live in fake_graph_nodes.cpp and fake_graph_execs.cpp.
#include "fake_graph_driver_state.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>

namespace fake_driver::model {

Driver& driver() {
  static Driver d;
  return d;
}

bool graph_alive(CUgraph graph) { return graph && graph->alive && (!graph->parent || graph_alive(graph->parent)); }

bool node_alive(CUgraphNode node) { return node && graph_alive(node->graph); }

namespace {

std::string hex(const std::vector<unsigned char>& bytes) {
  std::string s = "0x";
  char digits[3];
  for (unsigned char b : bytes) {
    std::snprintf(digits, sizeof digits, "%02x", b);
    s += digits;
  }
  return s;
}

}  // namespace

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

CUgraphExec_st::Node* exec_node(CUgraphExec exec, CUgraphNode node) {
  if (!exec || !exec->alive || !node_alive(node)) return nullptr;
  for (auto& n : exec->nodes)
    if (n.instantiated_from == node || (driver().accept_update_handles && n.updated_from == node)) return &n;
  return nullptr;
}

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

void flatten(CUgraph graph, std::vector<CUgraphNode_st*>& nodes) {
  for (CUgraphNode_st* n : graph->nodes) {
    nodes.push_back(n);
    if (n->work.type == CU_GRAPH_NODE_TYPE_GRAPH) flatten(n->work.child, nodes);
  }
}

std::size_t flattened_size(CUgraph graph) {
  std::vector<CUgraphNode_st*> nodes;
  flatten(graph, nodes);
  return nodes.size();
}

std::vector<std::size_t> positions(CUgraph graph, const std::vector<CUgraphNode_st*>& nodes) {
  std::vector<std::size_t> at;
  for (CUgraphNode_st* n : nodes)
    at.push_back(static_cast<std::size_t>(std::find(graph->nodes.begin(), graph->nodes.end(), n) - graph->nodes.begin()));
  return at;
}

bool can_disable(CUgraphNodeType type) {
  return type == CU_GRAPH_NODE_TYPE_KERNEL || type == CU_GRAPH_NODE_TYPE_MEMSET || type == CU_GRAPH_NODE_TYPE_MEMCPY;
}

CUresult record_memset(CUdeviceptr dst, std::size_t pitch, unsigned value, unsigned element, std::size_t width,
                       std::size_t height, CUstream stream) {
  Work w = of_type(CU_GRAPH_NODE_TYPE_MEMSET);
  w.set = CUDA_MEMSET_NODE_PARAMS{dst, pitch, value, element, width, height};
  log(w, stream);
  return CUDA_SUCCESS;
}

}  // namespace fake_driver::model

using namespace fake_driver::model;

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
