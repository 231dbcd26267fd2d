#pragma once
/// @file
/// What graph replay (graph_replay.h) does with each kind of graph node: replays it, disables
/// it in the program's exec, or runs a stand-in there; and the words for a kind it cannot replay.
#include <cuda.h>

namespace labbook::profiler {

/// Whether labbook can launch a node of `type` itself; any other kind leaves the graph whole.
bool replayable(CUgraphNodeType type);
/// Nodes the exec can disable; host and event nodes get stand-ins instead.
bool can_disable(CUgraphNodeType type);
/// Whether labbook does something to keep `type` from running in the exec.
bool silenced(CUgraphNodeType type);
/// The call that keeps a node of `type` from running in an exec, for messages.
const char* silencing_call(CUgraphNodeType type);
/// "a host-function node", ...: why a graph is not replayed.
const char* node_type_name(CUgraphNodeType type);

}  // namespace labbook::profiler
