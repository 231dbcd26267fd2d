#include "launch_matcher.h"

#include <algorithm>
#include <numeric>

namespace labbook::profiler {

std::vector<std::size_t> start_order(const std::vector<KernelRecord>& kernels) {
  std::vector<std::size_t> order(kernels.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&kernels](std::size_t a, std::size_t b) { return kernels[a].start_ns < kernels[b].start_ns; });
  return order;
}

void LaunchMatcher::add(std::uint32_t correlation, std::uint64_t index, const std::string* mangled) {
  entries_.push_back({correlation, index, mangled});
  if (index >= claimed_.size()) claimed_.resize(index + 1, false);
}

void LaunchMatcher::seal() {
  std::sort(entries_.begin(), entries_.end(), [](const Entry& a, const Entry& b) {
    return a.correlation != b.correlation ? a.correlation < b.correlation : a.index < b.index;
  });
}

std::optional<std::uint64_t> LaunchMatcher::claim(std::uint32_t correlation, const std::string& mangled) {
  const auto first = std::lower_bound(entries_.begin(), entries_.end(), correlation,
                                      [](const Entry& e, std::uint32_t c) { return e.correlation < c; });
  const Entry* chosen = nullptr;   // the first unclaimed one, unless one has the record's name
  for (auto it = first; it != entries_.end() && it->correlation == correlation; ++it) {
    if (claimed_[it->index]) continue;
    if (*it->mangled == mangled) {
      chosen = &*it;
      break;
    }
    if (!chosen) chosen = &*it;
  }
  if (!chosen) return std::nullopt;
  claimed_[chosen->index] = true;
  return chosen->index;
}

}  // namespace labbook::profiler
