#pragma once
/// @file
/// One warp's memory access as a picture, like the sources' figures 4-9 to 4-21: the 32
/// lanes on top, the bytes of memory they touch below in 32-byte sectors and 128-byte
/// lines, and each transaction the architecture issues as a coloured band.
#include <string>

#include "architecture.h"
#include "warp_access.h"

namespace labbook::report {

/// SVG of `access` on `arch`, with `title` above it.
std::string warp_figure_svg(const warp::WarpAccess& access, const warp::Architecture& arch, const std::string& title);

}  // namespace labbook::report
