#pragma once
/// @file
/// Joins what the harness did (its calls, result.json) with what the collector saw (every
/// kernel on every stream, by NVTX range), and judges the measurement before anything is
/// scored: a call's time and counters are the sum over all of its kernels, never a median
/// that a few empty launches could pull down; work outside the calls, work done without
/// kernels, results reused between calls, traffic below what the problem must move, or a
/// bandwidth above the GPU's peak are findings, and a finding voids the measured criteria.
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "harness_records.h"
#include "labbook/model/measurement.h"
#include "labbook/model/quantity.h"

namespace labbook::grading {

/// One harness call as the collector saw it.
struct CallMeasure {
  HarnessCall call;
  int kernels = 0;
  double kernel_ns = 0;                     ///< summed durations of its kernels (trace run)
  std::map<std::string, double> counters;   ///< its kernels' CUPTI metrics, combined
  double device_to_host_bytes = 0;          ///< copied from the device to the host inside it
  double host_to_device_bytes = 0;          ///< and from the host to the device
  double device_to_host_ns = 0, host_to_device_ns = 0;   ///< those copies' durations, added up
  double pageable_copy_bytes = 0;           ///< of those, to or from pageable host memory
  int host_copies = 0;                      ///< host-device copies (memsets apart)
  int synchronous_copies = 0;               ///< of which issued by a call that waits (no "Async")
  int streams = 0;                          ///< streams its kernels and copies ran on
  std::set<std::string> kernel_names;       ///< its kernels, as kernel_short_name() names them
  double host_copy_bytes() const { return host_to_device_bytes + device_to_host_bytes; }
  std::optional<double> wall_ns;            ///< its NVTX range in the trace, push to pop
  std::optional<double> copy_overlap_pct;   ///< of its copies' time, the share a kernel of it ran beside
  double copy_beside_kernels_ns = 0;        ///< that share's time
  double both_directions_ns = 0;            ///< the time an upload and a download of it ran at once
  int max_concurrent_kernels = 0;           ///< the most of its kernels running at one instant
};

struct CallAudit {
  std::vector<CallMeasure> calls;           ///< in the harness's order
  std::vector<std::string> findings;        ///< for the student, most telling first
  std::map<std::string, double> measured;   ///< a rubric quantity's name -> its value over the timed calls
  /// What the trace saw the student's host code do (copies from pageable memory, copies that
  /// wait, streams): feedback that voids nothing; the rubric scores what matters of it.
  std::vector<std::string> observations;
};

/// How the audit treats an exercise whose student writes host code (Exercise::host_code):
/// copies in the student's calls are the work, so instead of being findings they must carry
/// the input to the GPU and the output back at least once, and the audit's kernel-time checks
/// (time outside kernels, DRAM traffic against the compulsory bytes, the DRAM peak) do not
/// apply: a pipeline's time is its wall time, and copies leave data in L2.
struct HostCodeRules {
  bool enabled = false;
  /// The harness's call copying the input's size each way between page-locked memory and the
  /// GPU, whose copies give the link's bandwidth for `link_pct` ("" when none).
  std::string link_range;
  /// The kernel the harness's work function launches, as kernel_short_name() gives it: any
  /// other kernel in a student's call is a finding, and so is more of it than the reference
  /// ran for the same words ("" checks neither).
  std::string work_kernel;
};

/// `measured_range` and `reference_range` (the exercise's) name the timed calls of the
/// student and of the lab's reference: a call is one of them when its range is that path or
/// below it. `quantities`: what the rubric measures ("time", catalog names, and
/// "speed_pct_of_reference": reference time / student time x 100, and the host-code quantities
/// of quantity.h: wall_time, wall_speed_pct_of_reference, pageable_copy_bytes,
/// synchronous_copies, copy_overlap_pct, max_concurrent_kernels, link_pct). gld_efficiency and
/// gst_efficiency count only the bytes the problem needs: never more than the call's
/// compulsory bytes over the sectors its kernels moved.
CallAudit audit_calls(const Measurement& measurement, const HarnessResult& harness, const std::string& measured_range,
                      const std::string& reference_range, const std::vector<Quantity>& quantities,
                      const HostCodeRules& host_code = {});

/// True when `range` is `call_range` or an NVTX path below it.
bool within(const std::string& range, const std::string& call_range);

}  // namespace labbook::grading
