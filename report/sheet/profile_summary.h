#pragma once
/// @file
/// The summary `labbook profile` writes next to its measurement: nvprof's "GPU activities"
/// and "API calls" tables, kernels per NVTX range with their metrics, unified-memory
/// totals, memory charts, a roofline and the timeline picture, as a document (sheet.h) for
/// the Markdown/HTML writers.
#include <string>

#include "lab_data.h"
#include "labbook/model/measurement.h"
#include "sheet.h"

namespace labbook::report {

/// `timeline_file`: the SVG's file name relative to the summary ("" for none); `peaks`: the
/// arithmetic peaks the roofline's ceilings come from (labs/peaks.toml).
Sheet build_profile_summary(const Measurement&, const std::string& timeline_file,
                            const std::vector<ArithmeticPeak>& peaks = {});

}  // namespace labbook::report
