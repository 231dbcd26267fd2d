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

/// graph_nodes_in_order(), each child-graph node followed by its embedded graph's nodes, in
/// the same order, recursively: an order the whole graph allows. An executable graph names a
/// child's nodes by these handles (cuGraphChildGraphNodeGetGraph's graph, not the graph the
/// program passed in, which CUDA copied). `enclosing`, if given, receives for each node the
/// position of the innermost child-graph node holding it, kOwnNode for the graph's own.
constexpr std::size_t kOwnNode = static_cast<std::size_t>(-1);
std::vector<CUgraphNode> graph_nodes_flattened(CUgraph graph, std::vector<std::size_t>* enclosing = nullptr);

/// Mangled names of `graph`'s kernel nodes, in the order of graph_nodes_flattened(). Nodes
/// whose function cannot be named are "".
std::vector<std::string> graph_kernel_names(CUgraph graph);

/// True when `stream` is being captured into a graph: a kernel launched into it then runs
/// only later, as a node of a graph launch.
bool stream_is_capturing(CUstream stream);

}  // namespace labbook::profiler
