#pragma once
/// @file
/// Graph replay's private parts, shared by graph_replay.cpp (adopting, launching and giving
/// back an exec's nodes), graph_node_silence.cpp (a node silenced in the exec and given back)
/// and graph_replay_updates.cpp (following the program's changes to them).
#include <cstddef>
#include <vector>

#include <cuda.h>

#include "graph_kernels.h"
#include "graph_replay.h"

namespace labbook::profiler {

// Set while labbook's own driver calls run on this thread (GraphReplay::in_replay).
inline thread_local bool t_in_replay = false;

struct InReplay {   // marks this thread's driver calls as labbook's own for a scope
  InReplay() { t_in_replay = true; }
  ~InReplay() { t_in_replay = false; }
};

/// One node as labbook launches it: a copy of what the program gave the graph, since the
/// graph (and the arguments it holds) may be destroyed right after instantiation.
struct GraphReplay::Node {
  CUgraphNode handle = nullptr;          // in the graph the exec was instantiated from
  CUgraphNode update_handle = nullptr;   // its pair in the graph of the exec's last update
  CUgraphNodeType type = CU_GRAPH_NODE_TYPE_EMPTY;
  std::vector<std::size_t> dependencies;   // positions in the node list, in the graph's edge order
  bool enabled = true;   // as the program left it; in the exec labbook keeps it disabled
  // kernel
  CUfunction function = nullptr;
  unsigned grid[3] = {1, 1, 1}, block[3] = {1, 1, 1}, shared_bytes = 0;
  std::vector<std::vector<unsigned char>> arguments;
  std::vector<CUlaunchAttribute> attributes;
  // memcpy, memset
  CUDA_MEMCPY3D copy{};
  CUDA_MEMSET_NODE_PARAMS set{};
  // host function; event record or wait
  CUDA_HOST_NODE_PARAMS host{};
  CUevent event = nullptr;
  // Whether the exec runs labbook's stand-in for this host or event node, not the program's:
  // an update or a child graph's change puts the program's back, which a give-back keeps.
  bool stand_in = false;
  std::size_t enclosing = kOwnNode;   // position of the child-graph node holding it
};

}  // namespace labbook::profiler
