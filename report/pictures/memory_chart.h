#pragma once
/// @file
/// A memory flow (memory_flow.h) as an SVG picture for teaching, after Nsight Compute's
/// Memory Workload Analysis chart: boxes for the threads on the SM, L1, shared memory, L2
/// and DRAM, left to right, with the requests, sectors, bytes and hit rates measured on the
/// arrows and in the boxes, "not measured" where a counter was not collected. It scales with
/// the page (viewBox, width 100%) and carries its text alternative (<title>, <desc>).
#include <string>

#include "memory_flow.h"

namespace labbook::report {

/// The picture of `flow` under `title` (e.g. "readSegment/offset=11: medians over its
/// launches"), with memory_flow_caption()'s line when there is one.
std::string memory_chart_svg(const MemoryFlow& flow, const std::string& title);

}  // namespace labbook::report
