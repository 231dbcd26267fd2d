#pragma once
/// @file
/// The summary `labbook profile` writes next to its measurement: nvprof's "GPU activities"
/// and "API calls" tables, kernels per NVTX range with their metrics, unified-memory
/// totals and the timeline picture, as a document (sheet.h) for the Markdown/HTML writers.
#include <string>

#include "labbook/model/measurement.h"
#include "sheet.h"

namespace labbook::report {

/// `timeline_file`: the SVG's file name relative to the summary ("" for none).
Sheet build_profile_summary(const Measurement&, const std::string& timeline_file);

}  // namespace labbook::report
