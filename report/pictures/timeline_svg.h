#pragma once
/// @file
/// A timeline picture of a measurement as SVG: per host thread its NVTX ranges (one row per
/// nesting depth) and CUDA API calls, per GPU stream its kernels, copies and memsets, and
/// unified-memory events. Lanes are named inside the picture (GPU streams as stream_lanes.h
/// names them), every box carries a <title> tooltip and is named inside when the name fits,
/// and the picture has a <title> that says what it shows. For zooming, trace.json.gz in
/// Perfetto; this is the picture for a report.
#include <cstdint>
#include <string>
#include <vector>

#include "labbook/model/measurement.h"

namespace labbook::report {

/// The whole measurement, from its first event to its last.
std::string timeline_svg(const Measurement&);

/// From the start of the first kernel, copy or memset attributed to `range` (exact path
/// match) to the end of the last one; 0 when the range has none.
std::uint64_t range_activity_span_ns(const Measurement&, const std::string& range);

/// One NVTX range's GPU work: a lane per stream with the kernels, copies and memsets
/// attributed to the range, time counted from the first one's start. The plot's width
/// stands for `span_ns` (at least the range's own span), so that several ranges drawn with
/// the same span share one scale. Lanes come in the order the range first used the streams
/// and take `stream_names` in that order (a lab's [[timeline]] `streams`; stream_lanes.h).
std::string range_timeline_svg(const Measurement&, const std::string& range, std::uint64_t span_ns = 0,
                               const std::vector<std::string>& stream_names = {});

}  // namespace labbook::report
