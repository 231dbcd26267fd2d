#include "launch_matcher.h"

#include <algorithm>

namespace labbook::profiler {

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
