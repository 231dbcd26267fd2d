#pragma once
#include "labbook/model/measurement.h"

namespace labbook {

/// Combines a trace run (timeline, kernel timings) with a metrics run (kernel replay) of
/// the same program: kernels are matched by launch order, and a difference in the launch
/// sequence (count or kernel names) becomes an issue rather than a wrong attribution.
Measurement merge_runs(Measurement trace, const Measurement& metrics);

}  // namespace labbook
