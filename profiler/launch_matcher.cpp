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

void LaunchMatcher::reserve(std::size_t entries) { entries_.reserve(entries); }

void LaunchMatcher::add(std::uint32_t correlation, std::uint64_t index, const std::string* mangled) {
  entries_.push_back({correlation, index, mangled});
}

void LaunchMatcher::seal() {
  const auto before = [](const Entry& a, const Entry& b) {
    return a.correlation != b.correlation ? a.correlation < b.correlation : a.index < b.index;
  };
  // Launches are added in the order they were made, which correlation ids mostly follow.
  if (!std::is_sorted(entries_.begin(), entries_.end(), before)) std::sort(entries_.begin(), entries_.end(), before);
  // Sized once: grown a launch at a time, 10^5 launches took most of the join's time.
  std::uint64_t launches = 0;
  for (const Entry& e : entries_) launches = std::max(launches, e.index + 1);
  claimed_.assign(launches, false);
  last_ = 0;
}

// Records mostly come in the order of their calls: the search gallops on from the last found,
// a step or two, where a binary search of 10^5 launches missed the cache at each of its steps.
std::vector<LaunchMatcher::Entry>::const_iterator LaunchMatcher::first_of(std::uint32_t correlation) {
  const auto below = [](const Entry& e, std::uint32_t c) { return e.correlation < c; };
  auto from = entries_.cbegin(), to = entries_.cend();
  if (last_ < entries_.size() && entries_[last_].correlation <= correlation) {
    std::size_t step = 1, at = last_;
    while (at + step < entries_.size() && entries_[at + step].correlation < correlation) at += step, step *= 2;
    from += static_cast<std::ptrdiff_t>(at);
    to = from + static_cast<std::ptrdiff_t>(std::min(step, entries_.size() - at));
  }
  const auto first = std::lower_bound(from, to, correlation, below);
  last_ = static_cast<std::size_t>(first - entries_.cbegin());
  return first;
}

std::optional<std::uint64_t> LaunchMatcher::claim(std::uint32_t correlation, const std::string& mangled) {
  const auto first = first_of(correlation);
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
