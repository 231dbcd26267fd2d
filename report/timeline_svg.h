#pragma once
/// @file
/// A timeline picture of a measurement as SVG: per host thread its NVTX ranges (one row per
/// nesting depth) and CUDA API calls, per GPU stream its kernels, copies and memsets, and
/// unified-memory events. Every box carries a <title> tooltip. For zooming, trace.json in
/// Perfetto; this is the picture for a report.
#include <string>

#include "labbook/model/measurement.h"

namespace labbook::report {

std::string timeline_svg(const Measurement&);

}  // namespace labbook::report
