#pragma once
/// @file
/// The measurement's kernels made at the end of a run from what its callbacks saw of each
/// launch, joined with the trace's kernel records (by correlation id and name) and the range
/// profiler's metrics (by launch index). No CUPTI: unit tests join made-up runs.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "compact_records.h"
#include "labbook/model/measurement.h"
#include "labbook/model/measurement_json.h"

namespace labbook::profiler {

/// One kernel launch as seen by the driver API callback; a graph launch is one Launch per
/// kernel node, all with the graph launch's correlation ids. Kept for every launch of the run,
/// so small: the kernel's name is shared, the NVTX range an id.
struct Launch {
  std::uint64_t index;                 // its place in `launches` below
  const std::string* mangled;          // interned (InternedNames)
  std::size_t range;                   // NvtxTracker's Range id; 0: none
  std::uint32_t thread;
  int device;
  std::uint32_t runtime_correlation;   // 0 when launched through the driver API directly
  std::uint32_t driver_correlation;
  DefaultStream default_stream;        // the stream handle the call named
  bool selected;                       // by the launch filter: gets metrics
  bool beside_capture;                 // selected, but launched while a stream capture was open: none
};

/// Metric values by launch index, then metric name.
using LaunchMetrics = std::map<std::uint64_t, std::map<std::string, double>>;
/// An NVTX range id's path ("outer/inner"; "" for 0): NvtxTracker::path_of.
using RangePaths = std::function<std::string(std::size_t)>;

/// A trace run's kernels: each record takes the first launch of its call (correlation id) not
/// yet taken with its name, in the order the GPU started them; selected launches get their
/// metrics. A record no launch claims is numbered after every launch and said in unmatched().
/// The join is kept small and each kernel made only as its row is written (MadeRows).
class JoinedKernels {
 public:
  JoinedKernels(std::vector<KernelRecord> records, std::vector<Launch> launches, LaunchMetrics metrics,
                const RangePaths& path_of);

  std::size_t size() const { return rows_.size(); }
  /// Kernel `i` in launch order, made into `into` (its strings' room kept). Safe from several threads.
  void make(std::size_t i, Kernel& into) const;
  /// One message per kernel record no launch claimed.
  const std::vector<std::string>& unmatched() const { return unmatched_; }
  /// The kernels for the measurement's writer; this object must outlive them.
  MadeRows<Kernel> rows() const;

 private:
  struct Row {
    std::uint64_t launch;   // a claimed launch's index in launches_, or the number after them all
    std::size_t record;     // in records_
    bool claimed;
  };
  std::vector<KernelRecord> records_;
  std::vector<Launch> launches_;
  LaunchMetrics metrics_;
  std::vector<Row> rows_;   // in launch order
  std::unordered_map<const std::string*, std::string> names_;   // demangled, by interned name
  std::unordered_map<std::size_t, std::string> paths_;          // by NVTX range id
  std::vector<std::string> unmatched_;
};

/// A run without the trace: one kernel per launch, with its metrics where it was selected.
std::vector<Kernel> kernels_from_launches(const std::vector<Launch>& launches, const LaunchMetrics& metrics,
                                          const RangePaths& path_of);

/// What a metrics run that joins a measurement of every launch carries: the kernels of the
/// launches the filter chose, each with its ordinal among its NVTX path's launches of it, and
/// the tally of every launch by path and kernel.
struct ProfiledKernels {
  std::vector<Kernel> kernels;       ///< in launch order
  std::vector<LaunchTally> tally;    ///< by path, then kernel
};
/// std::nullopt where the kernels and the tally would be more than half as many records as the
/// launches (every launch chosen, or a path per launch): then every launch is written.
std::optional<ProfiledKernels> profiled_kernels_from_launches(const std::vector<Launch>& launches,
                                                              const LaunchMetrics& metrics, const RangePaths& path_of);

/// Each copy made by a runtime call of `range_by_correlation` takes that call's NVTX range.
void name_copy_ranges(std::vector<Copy>& copies, const std::unordered_map<std::uint32_t, std::size_t>& range_by_correlation,
                      const RangePaths& path_of);

}  // namespace labbook::profiler
