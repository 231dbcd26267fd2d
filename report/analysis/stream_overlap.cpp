#include "stream_overlap.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace labbook::report {

namespace {

using Interval = std::pair<std::uint64_t, std::uint64_t>;   // [start, end)

/// The union of `intervals` as sorted, disjoint intervals.
std::vector<Interval> merged(std::vector<Interval> intervals) {
  std::sort(intervals.begin(), intervals.end());
  std::vector<Interval> out;
  for (const auto& i : intervals) {
    if (!out.empty() && i.first <= out.back().second) out.back().second = std::max(out.back().second, i.second);
    else out.push_back(i);
  }
  return out;
}

/// Length of [start, end) covered by the sorted, disjoint `cover`.
std::uint64_t covered(std::uint64_t start, std::uint64_t end, const std::vector<Interval>& cover) {
  std::uint64_t sum = 0;
  for (const auto& [a, b] : cover) {
    if (b <= start) continue;
    if (a >= end) break;
    sum += std::min(b, end) - std::max(a, start);
  }
  return sum;
}

/// The most intervals open at one instant; an interval ending at t is closed before one
/// starting at t opens.
std::size_t max_open(const std::vector<Interval>& intervals) {
  std::vector<std::pair<std::uint64_t, int>> edges;   // (time, +1 start / -1 end): ends sort first
  for (const auto& [a, b] : intervals) {
    edges.push_back({a, +1});
    edges.push_back({b, -1});
  }
  std::sort(edges.begin(), edges.end());
  long open = 0, most = 0;
  for (const auto& e : edges) most = std::max(most, open += e.second);
  return static_cast<std::size_t>(most);
}

}  // namespace

StreamOverlap stream_overlap(const Measurement& m, const std::string& range, OverlapScope scope) {
  const auto in_range = [&](const std::string& r) { return scope.below ? nvtx_path_within(r, range) : r == range; };
  StreamOverlap out;
  std::vector<Interval> kernels;
  for (const auto& k : m.kernels)
    if (in_range(k.range) && k.start_ns && k.end_ns && *k.end_ns >= *k.start_ns) kernels.push_back({*k.start_ns, *k.end_ns});
  out.kernels = kernels.size();
  out.max_concurrent_kernels = max_open(kernels);
  const std::vector<Interval> busy = merged(kernels);
  std::vector<Interval> uploads, downloads;
  for (const auto& c : m.copies) {
    if (!in_range(c.range) || c.is_memset || c.end_ns < c.start_ns) continue;
    if (scope.host_copies_only && c.kind != CopyKind::HostToDevice && c.kind != CopyKind::DeviceToHost) continue;
    ++out.copies;
    out.copy_ns += c.end_ns - c.start_ns;
    out.hidden_copy_ns += covered(c.start_ns, c.end_ns, busy);
    if (c.kind == CopyKind::HostToDevice) uploads.push_back({c.start_ns, c.end_ns});
    if (c.kind == CopyKind::DeviceToHost) downloads.push_back({c.start_ns, c.end_ns});
  }
  const std::vector<Interval> downloading = merged(downloads);
  for (const auto& [a, b] : merged(uploads)) out.both_directions_ns += covered(a, b, downloading);
  return out;
}

}  // namespace labbook::report
