#pragma once
/// @file
/// The kernels a CUDA graph will run, read from the graph when it is instantiated, so that
/// a graph launch can be counted as one launch per kernel node (like `ncu
/// --graph-profiling node`). Driver API only; no CUPTI.
#include <string>
#include <vector>

#include <cuda.h>

namespace labbook::profiler {

/// Mangled names of `graph`'s kernel nodes, child graphs included, in node creation order
/// (a topological order: a node's dependencies exist before it). Nodes whose function
/// cannot be named are "" .
std::vector<std::string> graph_kernel_names(CUgraph graph);

/// True when `stream` is being captured into a graph: a kernel launched into it then runs
/// only later, as a node of a graph launch.
bool stream_is_capturing(CUstream stream);

}  // namespace labbook::profiler
