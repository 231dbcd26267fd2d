#pragma once
/// @file
/// A lab's acceptance checks ([[check]] in lab.toml) run on a measurement, plus the checks
/// every lab gets: each experiment is one NVTX range, and every kernel ran inside the range
/// it is attributed to. `labbook check` and the labs' GPU tests use this.
#include <string>
#include <vector>

#include "lab_data.h"
#include "labbook/model/measurement.h"

namespace labbook::report {

struct CheckOutcome {
  bool passed = false;
  std::string text;   ///< one line: what was checked, what was measured
  /// The repeats of a timed value fall on both sides of the bound: run-to-run noise decides
  /// it, not the GPU. Passed, and said so.
  bool inconclusive = false;
};

/// Every check's outcome, in lab.toml order, then the timeline checks.
std::vector<CheckOutcome> check_measurement(const LabData&, const Measurement&);

}  // namespace labbook::report
