#include "launch_matcher.h"

#include <algorithm>
#include <numeric>

namespace labbook::profiler {

std::vector<std::size_t> start_order(const std::vector<KernelRecord>& kernels) {
  std::vector<std::size_t> order(kernels.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  const auto earlier = [&kernels](std::size_t a, std::size_t b) { return kernels[a].start_ns < kernels[b].start_ns; };
  // One stream's records mostly come in the order they started: then there is nothing to sort.
  if (!std::is_sorted(order.begin(), order.end(), earlier)) std::stable_sort(order.begin(), order.end(), earlier);
  return order;
}

void LaunchMatcher::add(std::uint32_t correlation, std::uint64_t index, const std::string* mangled) {
  entries_.push_back({correlation, index, mangled});
  if (index >= claimed_.size()) claimed_.resize(index + 1, false);
}

void LaunchMatcher::seal() {
  const auto before = [](const Entry& a, const Entry& b) {
    return a.correlation != b.correlation ? a.correlation < b.correlation : a.index < b.index;
  };
  // Launches are added in the order they were made, which correlation ids mostly follow.
  if (!std::is_sorted(entries_.begin(), entries_.end(), before)) std::sort(entries_.begin(), entries_.end(), before);
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
