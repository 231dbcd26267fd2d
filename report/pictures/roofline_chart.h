#pragma once
/// @file
/// A roofline (roofline.h) as an SVG picture: FLOP per DRAM byte against FLOP/s on log axes,
/// the DRAM bandwidth slope and each precision's FMA ceiling, the kernels as numbered points
/// with a legend, and below the plot the kernels that are not points (no FLOPs, nothing
/// measured) as bars of their DRAM bandwidth against the roof. It scales with the page
/// (viewBox, width 100%) and carries its text alternative (<title>, <desc>).
#include <string>

#include "roofline.h"

namespace labbook::report {

/// The picture of `r` under `title`; `id` keeps its title and description ids unique on a
/// page that shows several rooflines.
std::string roofline_svg(const Roofline& r, const std::string& title, const std::string& id);

}  // namespace labbook::report
