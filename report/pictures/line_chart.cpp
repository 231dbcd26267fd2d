#include "line_chart.h"

#include <algorithm>
#include <cmath>

#include "format.h"

namespace labbook::report {

namespace {

constexpr double kLineLeft = 78, kLinePlotWidth = 520, kLineLegendWidth = 230, kLineTop = 40, kLinePlotHeight = 300, kLineBottom = 58;
const char* const kLineColours[] = {"#2f6fb0", "#d0622b", "#3a9a4a", "#8a4fb0", "#b0902f", "#c0397a", "#3aa0a0", "#666666"};

/// A tick's number, never in e-notation ("1000", not "1e+03").
std::string compact(double v, const char* format = "%.3g") {
  if (std::fabs(v) >= 1000) return format_number("%.0f", v);
  if (v != 0 && std::fabs(v) < 1e-3) return format_number("%.6f", v);
  return format_number(format, v);
}

/// Maps data values to pixels on one axis, linear or logarithmic.
class Scale {
 public:
  Scale(double lo, double hi, bool log, double from, double to) : log_(log), from_(from), to_(to) {
    lo_ = log ? std::log10(lo) : lo;
    hi_ = log ? std::log10(hi) : hi;
    if (hi_ <= lo_) hi_ = lo_ + 1;
  }
  double operator()(double v) const {
    const double t = ((log_ ? std::log10(v) : v) - lo_) / (hi_ - lo_);
    return from_ + t * (to_ - from_);
  }

 private:
  bool log_;
  double lo_, hi_, from_, to_;
};

/// Tick values: decades (with 2 and 5 when there are few) on a log axis; 1-2-5 steps from
/// zero on a linear one.
std::vector<double> ticks(double lo, double hi, bool log) {
  std::vector<double> out;
  if (log) {
    const int first = static_cast<int>(std::floor(std::log10(lo))), last = static_cast<int>(std::ceil(std::log10(hi)));
    const bool few = last - first <= 2;
    for (int e = first; e <= last; ++e)
      for (double m : {1.0, 2.0, 5.0}) {
        const double v = m * std::pow(10.0, e);
        if ((m == 1.0 || few) && v >= lo * 0.999 && v <= hi * 1.001) out.push_back(v);
      }
    return out;
  }
  const double raw = (hi - lo) / 5;
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  double step = magnitude;
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * magnitude >= raw) {
      step = m * magnitude;
      break;
    }
  for (double v = std::ceil(lo / step) * step; v <= hi * 1.0001; v += step) out.push_back(v);
  return out;
}

/// The x ticks: the sweep's own parameter values when there are few (4 KiB, 16 KiB, ...
/// read better than decades of bytes); for many sizes in bytes on a log axis, every k-th of
/// those values (powers of two stay powers of two: 4 KiB, 64 KiB, 1 MiB ..., not 9.766 KiB);
/// else as ticks() gives them.
std::vector<double> x_ticks(std::vector<double> xs, double lo, double hi, const CurveAxes& axes) {
  std::sort(xs.begin(), xs.end());
  xs.erase(std::unique(xs.begin(), xs.end()), xs.end());
  if (xs.size() >= 2 && xs.size() <= 12) return xs;
  if (axes.log_x && axes.x_unit == "bytes" && xs.size() > 12) {
    const std::size_t every = (xs.size() + 7) / 8;   // at most 8 labels
    std::vector<double> out;
    for (std::size_t i = 0; i < xs.size(); i += every) out.push_back(xs[i]);
    return out;
  }
  return ticks(lo, hi, axes.log_x);
}

/// Bounds of an axis over `values`: a log axis spans whole decades' worth of the data, a
/// linear one starts at zero.
std::pair<double, double> bounds(std::vector<double> values, bool log) {
  if (values.empty()) return {1, 10};
  const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
  if (log) return {*lo, *hi > *lo ? *hi : *lo * 10};
  return {std::min(0.0, *lo), *hi > 0 ? *hi * 1.08 : 1.0};
}

bool shown(const CurvePoint& p, const CurveAxes& a) { return (!a.log_x || p.x > 0) && (!a.log_y || p.y > 0); }

}  // namespace

std::string axis_tick_label(double v, const std::string& unit) {
  if (unit == "bytes") {
    const char* names[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int i = 0;
    while (std::fabs(v) >= 1024 && i < 4) v /= 1024, ++i;
    return compact(v, "%.4g") + " " + names[i];
  }
  if (unit == "bytes/s") return compact(v / 1e9) + " GB/s";
  if (unit == "ns") {
    if (std::fabs(v) >= 1e9) return compact(v / 1e9) + " s";
    if (std::fabs(v) >= 1e6) return compact(v / 1e6) + " ms";
    if (std::fabs(v) >= 1e3) return compact(v / 1e3) + " µs";
    return compact(v) + " ns";
  }
  if (unit == "%") return compact(v) + " %";
  const char* suffix[] = {"", "k", "M", "G", "T"};
  int i = 0;
  while (std::fabs(v) >= 1000 && i < 4) v /= 1000, ++i;
  return compact(v) + suffix[i] + (unit.empty() ? "" : " " + unit);
}

std::string line_chart_svg(const std::string& title, const std::vector<CurveLine>& lines,
                           const std::vector<CurveLevel>& levels, const CurveAxes& axes) {
  std::vector<double> xs, ys;
  for (const auto& l : lines)
    for (const auto* points : {&l.measured, &l.source})
      for (const auto& p : *points)
        if (shown(p, axes)) xs.push_back(p.x), ys.push_back(p.y);
  bool any_measured = false;
  for (const auto& l : lines)
    for (const auto& p : l.measured) any_measured = any_measured || shown(p, axes);
  for (const auto& level : levels)
    if (!axes.log_y || level.y > 0) ys.push_back(level.y);
  const auto [x_lo, x_hi] = bounds(xs, axes.log_x);
  const auto [y_lo, y_hi] = bounds(ys, axes.log_y);
  const Scale x(x_lo, x_hi, axes.log_x, kLineLeft, kLineLeft + kLinePlotWidth);
  const Scale y(y_lo, y_hi, axes.log_y, kLineTop + kLinePlotHeight, kLineTop);
  const double width = kLineLeft + kLinePlotWidth + kLineLegendWidth, height = kLineTop + kLinePlotHeight + kLineBottom;
  const double plot_bottom = kLineTop + kLinePlotHeight, plot_right = kLineLeft + kLinePlotWidth;

  std::string svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + svg_number(width) + "\" height=\"" + svg_number(height) +
                    "\" viewBox=\"0 0 " + svg_number(width) + " " + svg_number(height) +
                    "\" font-family=\"sans-serif\" font-size=\"11\">\n<title>" + escape_markup(title) +
                    "</title>\n<text x=\"4\" y=\"18\" font-size=\"13\" font-weight=\"bold\">" + escape_markup(title) +
                    "</text>\n";
  // Axes with ticks, grid lines and labels.
  svg += "<rect x=\"" + svg_number(kLineLeft) + "\" y=\"" + svg_number(kLineTop) + "\" width=\"" + svg_number(kLinePlotWidth) + "\" height=\"" +
         svg_number(kLinePlotHeight) + "\" fill=\"none\" stroke=\"#888\"/>\n";
  for (double t : x_ticks(xs, x_lo, x_hi, axes)) {
    const std::string at = svg_number(x(t));
    svg += "<line x1=\"" + at + "\" y1=\"" + svg_number(kLineTop) + "\" x2=\"" + at + "\" y2=\"" + svg_number(plot_bottom) +
           "\" stroke=\"#e4e4e4\"/><text class=\"x-tick\" x=\"" + at + "\" y=\"" + svg_number(plot_bottom + 14) +
           "\" text-anchor=\"middle\">" + escape_markup(axis_tick_label(t, axes.x_unit)) + "</text>\n";
  }
  for (double t : ticks(y_lo, y_hi, axes.log_y)) {
    const std::string at = svg_number(y(t));
    svg += "<line x1=\"" + svg_number(kLineLeft) + "\" y1=\"" + at + "\" x2=\"" + svg_number(plot_right) + "\" y2=\"" + at +
           "\" stroke=\"#e4e4e4\"/><text class=\"y-tick\" x=\"" + svg_number(kLineLeft - 4) + "\" y=\"" + svg_number(y(t) + 4) +
           "\" text-anchor=\"end\">" + escape_markup(axis_tick_label(t, axes.y_unit)) + "</text>\n";
  }
  svg += "<text class=\"x-label\" x=\"" + svg_number(kLineLeft + kLinePlotWidth / 2) + "\" y=\"" + svg_number(plot_bottom + 34) +
         "\" text-anchor=\"middle\">" + escape_markup(axes.x_label + (axes.log_x ? " (log scale)" : "")) + "</text>\n";
  svg += "<text class=\"y-label\" x=\"14\" y=\"" + svg_number(kLineTop + kLinePlotHeight / 2) + "\" text-anchor=\"middle\" transform=\"rotate(-90 14 " +
         svg_number(kLineTop + kLinePlotHeight / 2) + ")\">" + escape_markup(axes.y_label + (axes.log_y ? " (log scale)" : "")) +
         "</text>\n";
  if (!any_measured)
    svg += "<text x=\"" + svg_number(kLineLeft + kLinePlotWidth / 2) + "\" y=\"" + svg_number(kLineTop + kLinePlotHeight / 2) +
           "\" text-anchor=\"middle\" fill=\"#888\">no measured values</text>\n";

  // Levels: dashed, labelled at the right end.
  double legend_y = kLineTop + 6;
  for (const auto& level : levels) {
    if (axes.log_y && level.y <= 0) continue;
    const std::string at = svg_number(y(level.y));
    svg += "<line class=\"level\" x1=\"" + svg_number(kLineLeft) + "\" y1=\"" + at + "\" x2=\"" + svg_number(plot_right) + "\" y2=\"" + at +
           "\" stroke=\"#555\" stroke-dasharray=\"6 4\"/><text x=\"" + svg_number(plot_right - 4) + "\" y=\"" +
           svg_number(y(level.y) - 4) + "\" text-anchor=\"end\" fill=\"#555\">" +
           escape_markup(level.label + ": " + axis_tick_label(level.y, axes.y_unit)) + "</text>\n";
  }
  // One polyline and its markers per group, and its legend entry.
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string colour = kLineColours[i % (sizeof kLineColours / sizeof kLineColours[0])];
    std::vector<CurvePoint> measured;
    for (const auto& p : lines[i].measured)
      if (shown(p, axes)) measured.push_back(p);
    std::stable_sort(measured.begin(), measured.end(), [](const CurvePoint& a, const CurvePoint& b) { return a.x < b.x; });
    std::string points;
    for (const auto& p : measured) points += (points.empty() ? "" : " ") + svg_number(x(p.x)) + "," + svg_number(y(p.y));
    if (measured.size() > 1)
      svg += "<polyline class=\"measured\" fill=\"none\" stroke=\"" + colour + "\" stroke-width=\"1.8\" points=\"" + points + "\"/>\n";
    for (const auto& p : measured)
      svg += "<circle cx=\"" + svg_number(x(p.x)) + "\" cy=\"" + svg_number(y(p.y)) + "\" r=\"3\" fill=\"" + colour + "\"><title>" +
             escape_markup(lines[i].label + " at " + axis_tick_label(p.x, axes.x_unit) + ": " + axis_tick_label(p.y, axes.y_unit)) +
             "</title></circle>\n";
    for (const auto& p : lines[i].source) {
      if (!shown(p, axes)) continue;
      svg += "<rect class=\"source\" x=\"" + svg_number(x(p.x) - 4) + "\" y=\"" + svg_number(y(p.y) - 4) +
             "\" width=\"8\" height=\"8\" fill=\"white\" stroke=\"" + colour + "\" stroke-width=\"1.5\"><title>" +
             escape_markup(lines[i].label + ", source, at " + axis_tick_label(p.x, axes.x_unit) + ": " +
                           axis_tick_label(p.y, axes.y_unit)) +
             "</title></rect>\n";
    }
    svg += "<line x1=\"" + svg_number(plot_right + 12) + "\" y1=\"" + svg_number(legend_y) + "\" x2=\"" + svg_number(plot_right + 32) +
           "\" y2=\"" + svg_number(legend_y) + "\" stroke=\"" + colour + "\" stroke-width=\"2\"/><text x=\"" +
           svg_number(plot_right + 36) + "\" y=\"" + svg_number(legend_y + 4) + "\">" + escape_markup(lines[i].label) + "</text>\n";
    legend_y += 16;
  }
  bool any_source = false;
  for (const auto& l : lines) any_source = any_source || !l.source.empty();
  if (any_source)
    svg += "<rect x=\"" + svg_number(plot_right + 18) + "\" y=\"" + svg_number(legend_y - 4) +
           "\" width=\"8\" height=\"8\" fill=\"white\" stroke=\"#555\"/><text x=\"" + svg_number(plot_right + 36) + "\" y=\"" +
           svg_number(legend_y + 4) + "\">a source's value</text>\n";
  return svg + "</svg>\n";
}

}  // namespace labbook::report
