#pragma once
/// @file
/// A line chart as SVG: one quantity over a sweep's parameter values, one line per group
/// (measured here), the sources' values as hollow markers where they printed one for a
/// parameter value, and their single figures (a bus's or a memory's bandwidth) as dashed
/// horizontal levels. Either axis may be logarithmic. Pure: data in, SVG text out.
#include <string>
#include <vector>

namespace labbook::report {

struct CurvePoint {
  double x = 0, y = 0;
};

/// One group of the sweep. Points may come in any order: the chart sorts them by x.
struct CurveLine {
  std::string label;
  std::vector<CurvePoint> measured;
  std::vector<CurvePoint> source;    ///< values a source printed, drawn as hollow markers
};

/// A value a source gives for a whole group (no parameter value): a dashed level.
struct CurveLevel {
  std::string label;
  double y = 0;
};

struct CurveAxes {
  std::string x_label, x_unit;   ///< e.g. "bytes" and "bytes"
  std::string y_label, y_unit;   ///< e.g. "effective_bandwidth" and "bytes/s"
  bool log_x = true, log_y = false;
};

/// Points that a logarithmic axis cannot show (x or y <= 0) are left out. A chart without
/// any point still has its axes and says "no measured values".
std::string line_chart_svg(const std::string& title, const std::vector<CurveLine>& lines,
                           const std::vector<CurveLevel>& levels, const CurveAxes& axes);

/// An axis label: "4 KiB", "1 GiB" for bytes, "12 GB/s", "850 µs", "64k" for plain counts.
std::string axis_tick_label(double value, const std::string& unit);

}  // namespace labbook::report
