#pragma once
// The fake driver's model, shared by its files: the handles the driver API names, what each
// node does, and the helpers its calls share (fake_graph_driver.h says what it models).
#include <cstddef>
#include <deque>
#include <set>
#include <string>
#include <vector>

#include "fake_graph_driver.h"

namespace fake_driver::model {

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

inline Work of_type(CUgraphNodeType type) {
  Work w;
  w.type = type;
  return w;
}

}  // namespace fake_driver::model

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

struct CUgraphNode_st {
  CUgraph_st* graph = nullptr;
  fake_driver::model::Work work;
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
    fake_driver::model::Work work;
    bool enabled = true;
    std::vector<std::size_t> dependencies;   // positions in `nodes`, in edge order
  };
  std::vector<Node> nodes;   // creation order: a topological order
  cuuint64_t flags = 0;
  bool alive = true;
};

namespace fake_driver::model {

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
Driver& driver();

bool graph_alive(CUgraph graph);
bool node_alive(CUgraphNode node);
/// Writes what `w` sends to the GPU into work(), or runs it (a host function).
void log(const Work& w, CUstream stream);
/// The argument bytes in an `extra` array (CU_LAUNCH_PARAM_BUFFER_POINTER, its size, END),
/// split by parameter size; false when the array says something else.
bool read_extra(void** extra, const CUfunc_st& f, std::vector<std::vector<unsigned char>>& arguments);
CUresult read_kernel(const CUDA_KERNEL_NODE_PARAMS& p, Work& w);
CUresult add_node(CUgraphNode* out, CUgraph graph, const CUgraphNode* dependencies, std::size_t count, Work w);
/// The exec's node that `node` names, or null.
CUgraphExec_st::Node* exec_node(CUgraphExec exec, CUgraphNode node);
/// A copy of `graph` embedded in a child graph node of `parent`, nested children copied too.
CUgraph embed(CUgraph graph, CUgraph parent);
/// `graph`'s nodes, each child graph node followed by its embedded graph's, as an exec holds them.
void flatten(CUgraph graph, std::vector<CUgraphNode_st*>& nodes);
/// How many nodes `graph` holds, its children's included.
std::size_t flattened_size(CUgraph graph);
/// Where `nodes` stand in `graph`'s creation order.
std::vector<std::size_t> positions(CUgraph graph, const std::vector<CUgraphNode_st*>& nodes);
bool can_disable(CUgraphNodeType type);
/// A memset sent to the GPU outside a graph.
CUresult record_memset(CUdeviceptr dst, std::size_t pitch, unsigned value, unsigned element, std::size_t width,
                       std::size_t height, CUstream stream);

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

}  // namespace fake_driver::model
