#pragma once
/// @file
/// One warp's memory access as a picture, like the sources' figures 4-9 to 4-21: for each
/// architecture a panel with the 32 lanes on top (lane numbers above them), the bytes of
/// memory they touch below (byte offsets under them, a heavy line every 128-byte line, a light
/// tick every 32-byte sector) and each transaction the architecture issues as a coloured band.
/// The panels share one memory axis, so "then" and "now" line up one above the other.
#include <string>
#include <vector>

#include "architecture.h"
#include "warp_access.h"

namespace labbook::report {

/// One panel: the access as `architecture` serves it, headed by `label` ("then", "now").
struct WarpPanel {
  std::string label;
  warp::Architecture architecture;
};

/// SVG of `access` in one panel per entry of `panels`, headed by `title` (the experiment).
/// Scales to its container's width; its <title> is warp_figure_description's text.
std::string warp_figure_svg(const warp::WarpAccess& access, const std::vector<WarpPanel>& panels, const std::string& title);

/// The picture in words, for screen readers: whether the lanes load or store, and per panel
/// the transactions and the bytes moved for those requested.
std::string warp_figure_description(const warp::WarpAccess& access, const std::vector<WarpPanel>& panels,
                                    const std::string& title);

}  // namespace labbook::report
