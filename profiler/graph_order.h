#pragma once
/// @file
/// The order in which labbook numbers (and, in a metrics run, launches) a CUDA graph's
/// nodes: a topological order, ties broken by creation order. The trace run and the metrics
/// runs must list a graph's kernels in the same order, or their launches would not pair up.
/// No CUDA here: nodes are their creation indices.
#include <cstddef>
#include <utility>
#include <vector>

namespace labbook::profiler {

/// Creation indices 0..nodes-1 in an order where every edge (from, to) has `from` first;
/// among the nodes whose dependencies are done, the one created first comes first, so that a
/// creation order which is already topological comes back unchanged. Edges naming a node
/// outside 0..nodes-1 are ignored; nodes on a cycle (a graph has none) come last, in
/// creation order.
std::vector<std::size_t> topological_order(std::size_t nodes,
                                           const std::vector<std::pair<std::size_t, std::size_t>>& edges);

}  // namespace labbook::profiler
