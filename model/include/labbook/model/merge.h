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

/// Gives `into`'s kernels the per-instruction SASS counts of the source run (`profile
/// --source`), matched as merge_runs matches them, and takes over the run's issues; a kernel
/// of the source run without a partner is an issue.
void merge_sass(Measurement& into, const Measurement& source);

}  // namespace labbook
