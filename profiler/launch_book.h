#pragma once
/// @file
/// LaunchBook: the run's kernel launches as the driver callbacks record them, numbered in the
/// order they were made and chosen for metrics or not by the launch filter, and the NVTX
/// ranges of the runtime calls that may make copies; the measurement takes both at the end of
/// the run. Safe from any thread. No CUPTI: unit tests record made-up launches.
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "launch_filter.h"
#include "launch_join.h"

namespace labbook::profiler {

/// What one launch call (the driver callback's entry) tells of its kernels but their names.
struct LaunchCall {
  std::uint32_t thread = 0;
  std::size_t range = 0;                   // NvtxTracker's Range id open on the thread; 0: none
  int device = 0;
  std::uint32_t runtime_correlation = 0;   // 0 when launched through the driver API directly
  std::uint32_t driver_correlation = 0;
  DefaultStream default_stream = DefaultStream::None;   // None for a graph launch
  bool graph = false;                      // a graph run whole: one Launch per kernel node
  bool choosing = false;                   // a run with the range profiler or source counts
  bool beside_capture = false;             // another stream was being captured at the launch
};

/// What record() added for one launch call.
struct RecordedLaunches {
  std::uint64_t first = 0;              // the kernels' launch indices: first .. first + count - 1,
  std::size_t count = 0;                // numbered under one lock
  std::vector<Launch> launches;         // copies of the Launches, where record() was asked for them
  bool any_selected = false;
};

/// What take() takes: the launches so far, and the NVTX range ids of runtime calls (for copies).
struct TakenLaunches {
  std::vector<Launch> launches;
  std::unordered_map<std::uint32_t, std::size_t> range_by_correlation;
};

class LaunchBook {
 public:
  explicit LaunchBook(LaunchFilterSpec filter) : filter_(std::move(filter)) {}

  /// Adds one Launch per kernel of `call` (`kernels`: interned mangled names), numbered after
  /// every launch so far, taken or not; `path_of` names a range for the filter. With
  /// `copy_launches`, the result holds copies of them (take() empties the book).
  RecordedLaunches record(const LaunchCall& call, const std::vector<const std::string*>& kernels,
                          const RangePaths& path_of, bool copy_launches);

  /// The runtime call `correlation` was made in NVTX range `range`: its copies take it
  /// (the calls that may_make_copies() names).
  void note_copy_range(std::uint32_t correlation, std::size_t range);

  /// Takes everything recorded so far, leaving the book empty; launches recorded later are
  /// numbered after those taken.
  TakenLaunches take();

  /// How many launches the last take() took.
  std::size_t launches_seen() const;

 private:
  const std::string& demangled_name(const std::string& mangled);

  mutable std::mutex mutex_;
  LaunchFilter filter_;                   // guarded by mutex_
  std::vector<Launch> launches_;
  std::size_t launches_seen_ = 0;         // launches_'s size when take() took it (mutex_)
  // NVTX range ids of runtime calls (for copies)
  std::unordered_map<std::uint32_t, std::size_t> range_by_correlation_;
  std::unordered_map<std::string, std::string> demangled_names_;
};

/// A runtime call whose copies and memsets the trace records (the memcpy and memset family, and
/// graph launches, whose memcpy and memset nodes are the launch call's): its NVTX range is kept
/// for them. Others are not, kernel launches above all (a kernel takes its launch's range; 10^5
/// launches held 5 MB of ranges that no copy would take). `function`: the runtime API's name.
bool may_make_copies(const char* function);

/// The collection issue ("launch_during_capture") for `launches` that ran beside a stream
/// capture, without metrics: how many, and their kernels; std::nullopt when none did.
std::optional<std::string> launches_beside_capture(const std::vector<Launch>& launches);

}  // namespace labbook::profiler
