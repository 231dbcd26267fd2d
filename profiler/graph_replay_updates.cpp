// Graph replay following the program: its changes to the nodes of an exec labbook adopted go
// to labbook's copies, and the nodes stay labbook's to launch.
#include <mutex>
#include <optional>

#include "driver_status.h"
#include "graph_node_copy.h"
#include "graph_node_kinds.h"
#include "graph_replay_internal.h"

namespace labbook::profiler {

namespace {

constexpr const char* kUnknownNode = "the program changed a node labbook had not copied";

}  // namespace

GraphReplay::Node* GraphReplay::find(CUgraphExec exec, CUgraphNode node) {
  auto it = execs_.find(exec);
  if (it == execs_.end()) return nullptr;
  Exec& e = it->second;
  for (Node& n : e.nodes)
    if ((e.instantiated.alive && n.handle == node) || (e.update.alive && n.update_handle == node)) return &n;
  return nullptr;
}

template <typename Change>
std::string GraphReplay::change_node(CUgraphExec exec, CUgraphNode node, Change&& change) {
  InReplay own_calls;
  std::lock_guard<std::mutex> lock(mutex_);
  if (!execs_.count(exec)) return "";   // not labbook's: nothing to follow
  Node* n = find(exec, node);
  return n ? change(*n) : kUnknownNode;
}

std::string GraphReplay::set_kernel(CUgraphExec exec, CUgraphNode node, const CUDA_KERNEL_NODE_PARAMS& params) {
  return change_node(exec, node, [&](Node& n) {
    return copy_kernel(params, n.function, n.grid, n.block, n.shared_bytes, n.arguments);
  });
}

std::string GraphReplay::set_memcpy(CUgraphExec exec, CUgraphNode node, const CUDA_MEMCPY3D& params) {
  return change_node(exec, node, [&](Node& n) {
    n.copy = params;
    return std::string();
  });
}

std::string GraphReplay::set_memset(CUgraphExec exec, CUgraphNode node, const CUDA_MEMSET_NODE_PARAMS& params) {
  return change_node(exec, node, [&](Node& n) {
    n.set = params;
    return std::string();
  });
}

std::string GraphReplay::stand_in_again(CUgraphExec exec, CUgraphNode node, Node& n) {
  const CUresult r = silence(exec, node, n, execs_.at(exec).stand_ins);   // still labbook's to run
  n.stand_in = r == CUDA_SUCCESS;
  return r == CUDA_SUCCESS ? "" : describe_driver_call(silencing_call(n.type), r);
}

std::string GraphReplay::set_host(CUgraphExec exec, CUgraphNode node, const CUDA_HOST_NODE_PARAMS& params) {
  return change_node(exec, node, [&](Node& n) {
    n.host = params;
    return stand_in_again(exec, node, n);
  });
}

std::string GraphReplay::set_event(CUgraphExec exec, CUgraphNode node, CUevent event) {
  return change_node(exec, node, [&](Node& n) {
    n.event = event;
    return stand_in_again(exec, node, n);
  });
}

std::string GraphReplay::child_graph_changed(CUgraphExec exec, CUgraphNode node) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = execs_.find(exec);
  if (it == execs_.end()) return "";   // not labbook's: nothing to follow
  Nodes& nodes = it->second.nodes;
  const Node* child = find(exec, node);
  if (!child) return kUnknownNode;
  const std::size_t at = static_cast<std::size_t>(child - nodes.data());
  for (Node& n : nodes)   // the child's nodes, at any depth, now hold the program's new ones
    for (std::size_t p = n.enclosing; p != kOwnNode; p = nodes[p].enclosing)
      if (p == at) n.stand_in = false;
  return "the program changed a child graph's nodes";
}

std::string GraphReplay::set_enabled(CUgraphExec exec, CUgraphNode node, bool enabled) {
  return change_node(exec, node, [&](Node& n) -> std::string {
    n.enabled = enabled;
    if (!enabled) return "";
    const CUresult r = cuGraphNodeSetEnabled(exec, node, 0);   // still labbook's to launch
    return r == CUDA_SUCCESS ? "" : describe_driver_call("disabling a node again (cuGraphNodeSetEnabled)", r);
  });
}

std::optional<bool> GraphReplay::enabled(CUgraphExec exec, CUgraphNode node) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (const Node* n = find(exec, node)) return n->enabled;
  return std::nullopt;
}

}  // namespace labbook::profiler
