#pragma once
/// @file
/// NvtxTracker: turns NVTX push/pop and start/end events into Range records and knows,
/// for each thread, the range path open right now (what a kernel launch is attributed to).
/// Knows nothing about CUPTI, so tests drive it with synthetic events.
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "labbook/model/measurement.h"

namespace labbook::profiler {

class NvtxTracker {
 public:
  void push(std::uint32_t thread, const std::string& name, std::uint64_t now_ns,
            std::optional<double> payload = std::nullopt);
  /// A pop with nothing open on the thread is ignored (returns false), as NVTX does.
  bool pop(std::uint32_t thread, std::uint64_t now_ns);
  /// Process-wide ranges (nvtxRangeStart/End) may end on another thread.
  void start(std::uint64_t nvtx_id, std::uint32_t thread, const std::string& name, std::uint64_t now_ns,
             std::optional<double> payload = std::nullopt);
  bool end(std::uint64_t nvtx_id, std::uint64_t now_ns);

  /// The innermost push/pop range open on `thread` as its Range id, 0 when none: cheaper to
  /// keep per launch than its path, which path_of() gives later ("outer/inner"; "" for 0).
  std::size_t current_range(std::uint32_t thread) const;
  std::string path_of(std::size_t range_id) const;

  /// Every range seen so far; ranges still open have no end_ns.
  std::vector<Range> ranges() const;

 private:
  mutable std::mutex mutex_;
  std::vector<Range> ranges_;
  std::map<std::uint32_t, std::vector<std::size_t>> open_by_thread_;  // indices into ranges_
  std::map<std::uint64_t, std::size_t> open_by_nvtx_id_;
};

}  // namespace labbook::profiler
