#pragma once
/// @file
/// What a CUDA graph will run, read from the graph when it is instantiated, so that a graph
/// launch can be counted as one launch per kernel node (like `ncu --graph-profiling node`).
/// Driver API only; no CUPTI.
#include <string>
#include <vector>

#include <cuda.h>

namespace labbook::profiler {

/// `graph`'s own nodes (a child graph's stay inside its child-graph node) in the order labbook
/// numbers them (graph_order.h). Empty if the graph cannot be read.
std::vector<CUgraphNode> graph_nodes_in_order(CUgraph graph);

/// Mangled names of `graph`'s kernel nodes, child graphs' in place of their node, in the
/// order of graph_nodes_in_order(). Nodes whose function cannot be named are "".
std::vector<std::string> graph_kernel_names(CUgraph graph);

/// True when `stream` is being captured into a graph: a kernel launched into it then runs
/// only later, as a node of a graph launch.
bool stream_is_capturing(CUstream stream);

}  // namespace labbook::profiler
