#include "graph_order.h"

#include <functional>
#include <queue>

namespace labbook::profiler {

std::vector<std::size_t> topological_order(std::size_t nodes,
                                           const std::vector<std::pair<std::size_t, std::size_t>>& edges) {
  std::vector<std::vector<std::size_t>> successors(nodes);
  std::vector<std::size_t> waiting_for(nodes, 0);
  for (const auto& [from, to] : edges) {
    if (from >= nodes || to >= nodes) continue;
    successors[from].push_back(to);
    ++waiting_for[to];
  }
  std::priority_queue<std::size_t, std::vector<std::size_t>, std::greater<>> ready;
  for (std::size_t n = 0; n < nodes; ++n)
    if (waiting_for[n] == 0) ready.push(n);
  std::vector<std::size_t> order;
  std::vector<bool> placed(nodes, false);
  while (!ready.empty()) {
    const std::size_t n = ready.top();
    ready.pop();
    order.push_back(n);
    placed[n] = true;
    for (std::size_t next : successors[n])
      if (--waiting_for[next] == 0) ready.push(next);
  }
  for (std::size_t n = 0; n < nodes; ++n)
    if (!placed[n]) order.push_back(n);
  return order;
}

}  // namespace labbook::profiler
