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
#include <string>
#include <vector>

#include "harness_records.h"
#include "labbook/model/measurement.h"

namespace labbook::grading {

/// One harness call as the collector saw it.
struct CallMeasure {
  HarnessCall call;
  int kernels = 0;
  double kernel_ns = 0;                     ///< summed durations of its kernels (trace run)
  std::map<std::string, double> counters;   ///< its kernels' CUPTI metrics, combined
  double host_copy_bytes = 0;               ///< copied between host and device inside it
  double device_to_host_bytes = 0;          ///< of which from the device to the host
};

struct CallAudit {
  std::vector<CallMeasure> calls;           ///< in the harness's order
  std::vector<std::string> findings;        ///< for the student, most telling first
  std::map<std::string, double> measured;   ///< rubric quantity -> value over the timed calls
};

/// `measured_range` and `reference_range` (the exercise's) name the timed calls of the
/// student and of the lab's reference: a call is one of them when its range is that path or
/// below it. `quantities`: what the rubric measures ("time", catalog names, and
/// "speed_pct_of_reference": reference time / student time x 100). gld_efficiency and
/// gst_efficiency count only the bytes the problem needs: never more than the call's
/// compulsory bytes over the sectors its kernels moved.
CallAudit audit_calls(const Measurement& measurement, const HarnessResult& harness, const std::string& measured_range,
                      const std::string& reference_range, const std::vector<std::string>& quantities);

/// `cupti_metrics` plus the counters audit_calls() needs to combine them over a call's
/// kernels (the sectors that weight an efficiency): without them an efficiency is not measured.
std::vector<std::string> with_combining_weights(std::vector<std::string> cupti_metrics);

/// True when `range` is `call_range` or an NVTX path below it.
bool within(const std::string& range, const std::string& call_range);

}  // namespace labbook::grading
