#pragma once
/// @file
/// How the GPU work of one NVTX range overlapped, from the trace run's kernels and copies
/// (their start, end and stream): how much of the copy time ran while a kernel of the range
/// was running, and how many of its kernels ran at once. Pure functions of the data model;
/// quantities.h shows them as `copy_overlap_pct` and `max_concurrent_kernels`.
#include <cstdint>
#include <string>

#include "labbook/model/measurement.h"

namespace labbook::report {

struct StreamOverlap {
  std::size_t kernels = 0, copies = 0;   ///< timed kernels and memcpys (memsets are not copies)
  std::uint64_t copy_ns = 0;             ///< the copies' durations, added up
  /// Of copy_ns, the time during which at least one kernel of the range was running: copies
  /// in both directions at once count twice, as they do in copy_ns.
  std::uint64_t hidden_copy_ns = 0;
  /// The time during which an upload and a download of the range ran at once (the GPU's two
  /// copy engines, one per direction, both busy).
  std::uint64_t both_directions_ns = 0;
  /// The most kernels of the range running at one instant (one ending when another starts
  /// does not count as running beside it).
  std::size_t max_concurrent_kernels = 0;
  /// 100 x hidden_copy_ns / copy_ns (0 without copies).
  double copy_overlap_pct() const {
    return copy_ns ? 100.0 * static_cast<double>(hidden_copy_ns) / static_cast<double>(copy_ns) : 0.0;
  }
};

/// Which work stream_overlap() looks at.
struct OverlapScope {
  bool below = false;              ///< the range's NVTX path and every path below it, not only the path
  bool host_copies_only = false;   ///< copies between host and device only (not device to device)
};

/// The overlap of the kernels and copies attributed to `range`.
StreamOverlap stream_overlap(const Measurement&, const std::string& range, OverlapScope scope = {});

}  // namespace labbook::report
