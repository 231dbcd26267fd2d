#pragma once
/// @file
/// Merging the two runs of one program that `labbook profile` makes.
#include "labbook/model/measurement.h"

namespace labbook {

/// Combines a trace run (timeline, kernel timings) with a metrics run (kernel replay) of
/// the same program. A kernel is matched by its NVTX range, its name and how many launches
/// of that name in that range came before it, not by global launch order: threads launch in
/// a different interleaving in each run. Kernels that find no partner become an issue
/// rather than a wrong attribution.
Measurement merge_runs(Measurement trace, const Measurement& metrics);

}  // namespace labbook
