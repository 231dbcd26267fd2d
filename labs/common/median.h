#pragma once
// The median of a few runs' timings: what every lab prints, so that one slow run does not move it.
#include <algorithm>
#include <vector>

namespace labbook::lab {

/// The middle value (the upper middle one of an even count); T{} when there is none.
template <typename T>
T median(std::vector<T> values) {
  if (values.empty()) return T{};
  const auto middle = values.begin() + static_cast<long>(values.size() / 2);
  std::nth_element(values.begin(), middle, values.end());
  return *middle;
}

}  // namespace labbook::lab
