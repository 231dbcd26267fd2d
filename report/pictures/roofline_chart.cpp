#include "roofline_chart.h"

#include <algorithm>
#include <cmath>

#include "format.h"

namespace labbook::report {

namespace {

constexpr double kRoofLeft = 92, kRoofTop = 58, kRoofPlotWidth = 520, kRoofPlotHeight = 330;
constexpr double kLegendX = kRoofLeft + kRoofPlotWidth + 24, kRoofWidth = 960;
constexpr double kAsideRow = 22, kAsideBarX = 420, kAsideBarWidth = 300;
constexpr std::size_t kLabelChars = 36, kRoofTitleChars = 100;
const char* const kSpColour = "#2f6fb0";
const char* const kDpColour = "#d0622b";

std::string number(double v) { return format_number("%g", v); }

/// FLOP/s as an axis reads it, three digits at most: "10 GFLOP/s", "66.9 TFLOP/s".
std::string rate_label(double v) {
  const double scale = v >= 1e12 ? 1e12 : v >= 1e9 ? 1e9 : 1e6;
  const char* unit = v >= 1e12 ? "TFLOP/s" : v >= 1e9 ? "GFLOP/s" : "MFLOP/s";
  return format_number(v / scale >= 100 ? "%.0f" : "%.3g", v / scale) + " " + unit;
}

/// Where a point's number goes: beside the point, on the first side where it covers no
/// number placed before (points of similar kernels often coincide).
struct LabelPlacer {
  std::vector<std::pair<double, double>> placed;
  std::pair<double, double> place(double px, double py, std::size_t chars) {
    const double w = 7.5 * static_cast<double>(chars), h = 12;
    const std::pair<double, double> candidates[] = {{px + 7, py - 5}, {px + 7, py + 13}, {px - 7 - w, py - 5},
                                                    {px - 7 - w, py + 13}, {px - w / 2, py - 9}, {px - w / 2, py + 19}};
    for (const auto& [x, y] : candidates) {
      const bool free = std::none_of(placed.begin(), placed.end(), [&](const auto& q) {
        return std::fabs(q.first - x) < w + 2 && std::fabs(q.second - y) < h;
      });
      if (free) return placed.emplace_back(x, y);
    }
    return placed.emplace_back(candidates[0]);
  }
};

/// Whole decades around [lo, hi].
std::pair<double, double> decades(double lo, double hi) {
  return {std::pow(10.0, std::floor(std::log10(lo))), std::pow(10.0, std::ceil(std::log10(hi)))};
}

class LogScale {
 public:
  LogScale(double lo, double hi, double from, double to)
      : lo_(std::log10(lo)), hi_(std::log10(hi)), from_(from), to_(to) {}
  double operator()(double v) const { return from_ + (std::log10(v) - lo_) / (hi_ - lo_) * (to_ - from_); }

 private:
  double lo_, hi_, from_, to_;
};

std::string text(double x, double y, const std::string& s, const std::string& attributes = "") {
  return "<text x=\"" + svg_number(x) + "\" y=\"" + svg_number(y) + "\"" + (attributes.empty() ? "" : " " + attributes) + ">" +
         escape_markup(s) + "</text>\n";
}

std::string line(double x1, double y1, double x2, double y2, const std::string& attributes) {
  return "<line x1=\"" + svg_number(x1) + "\" y1=\"" + svg_number(y1) + "\" x2=\"" + svg_number(x2) + "\" y2=\"" +
         svg_number(y2) + "\" " + attributes + "/>\n";
}

const char* colour(const std::string& precision) { return precision == "sp" ? kSpColour : kDpColour; }

}  // namespace

std::string roofline_svg(const Roofline& r, const std::string& title, const std::string& id) {
  const std::vector<RooflinePoint> points = roofline_points(r);
  const std::vector<RooflineAside> asides = roofline_asides(r);
  const double bw = r.dram_bytes_per_second, l2 = l2_roof(r);
  const bool l2_points = std::any_of(points.begin(), points.end(), [](const auto& p) { return p.l2_intensity.has_value(); });

  // Axis bounds: the points and every ridge, with room on each side.
  std::vector<double> xs, ys;
  for (const auto& p : points) {
    xs.push_back(p.intensity), ys.push_back(p.flops_per_second);
    if (p.l2_intensity) xs.push_back(*p.l2_intensity);
  }
  for (const auto& c : r.ceilings) {
    ys.push_back(c.flops_per_second);
    if (bw > 0) xs.push_back(c.flops_per_second / bw);
    if (l2 > 0) xs.push_back(c.flops_per_second / l2);
  }
  if (xs.empty()) xs = {0.1, 10};
  if (ys.empty()) ys = {1e9, 1e12};
  auto [x_lo, x_hi] = decades(*std::min_element(xs.begin(), xs.end()) / 3, *std::max_element(xs.begin(), xs.end()) * 3);
  auto [y_lo, y_hi] = decades(*std::min_element(ys.begin(), ys.end()) / 3, *std::max_element(ys.begin(), ys.end()) * 1.5);
  y_lo = std::max(y_lo, y_hi / 1e6);   // six decades at most: lower points sit on the axis
  const LogScale x(x_lo, x_hi, kRoofLeft, kRoofLeft + kRoofPlotWidth), y(y_lo, y_hi, kRoofTop + kRoofPlotHeight, kRoofTop);
  const double plot_bottom = kRoofTop + kRoofPlotHeight, plot_right = kRoofLeft + kRoofPlotWidth;

  const double legend_bottom = kRoofTop + 36 + 18.0 * static_cast<double>(points.size() + r.ceilings.size() + (l2_points ? 1 : 0));
  const double aside_top = std::max(plot_bottom + 62, legend_bottom + 10);
  const double height = aside_top + (asides.empty() ? 0 : 30 + kAsideRow * static_cast<double>(asides.size())) + 10;

  std::string svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"100%\" viewBox=\"0 0 " + svg_number(kRoofWidth) + " " +
                    svg_number(height) + "\" role=\"img\" aria-labelledby=\"" + id + "-title " + id +
                    "-desc\" font-family=\"sans-serif\" font-size=\"13\">\n<title id=\"" + id + "-title\">" +
                    escape_markup("Roofline: " + title) + "</title>\n<desc id=\"" + id + "-desc\">" +
                    escape_markup(roofline_description(r)) + "</desc>\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  svg += text(12, 24, cut_text(title, kRoofTitleChars), "font-size=\"16\" font-weight=\"bold\"");
  svg += text(12, 44, "Roofs of the " + (r.gpu.empty() ? std::string("GPU") : r.gpu) + "; each point one kernel, numbered as in the legend",
              "fill=\"#444\"");

  // Plot frame, decade grid and tick labels.
  svg += "<rect x=\"" + svg_number(kRoofLeft) + "\" y=\"" + svg_number(kRoofTop) + "\" width=\"" + svg_number(kRoofPlotWidth) + "\" height=\"" +
         svg_number(kRoofPlotHeight) + "\" fill=\"none\" stroke=\"#888\"/>\n";
  for (double t = x_lo; t <= x_hi * 1.001; t *= 10) {
    svg += line(x(t), kRoofTop, x(t), plot_bottom, "stroke=\"#e4e4e4\"");
    svg += text(x(t), plot_bottom + 16, number(t), "text-anchor=\"middle\" class=\"x-tick\"");
  }
  for (double t = y_lo; t <= y_hi * 1.001; t *= 10) {
    svg += line(kRoofLeft, y(t), plot_right, y(t), "stroke=\"#e4e4e4\"");
    svg += text(kRoofLeft - 5, y(t) + 4, rate_label(t), "text-anchor=\"end\" class=\"y-tick\" font-size=\"11\"");
  }
  svg += text(kRoofLeft + kRoofPlotWidth / 2, plot_bottom + 38,
              l2_points ? "arithmetic intensity: FLOP per byte of DRAM traffic (filled), of L2 traffic (hollow), log scale"
                        : "arithmetic intensity: FLOP per byte of DRAM traffic (log scale)",
              "text-anchor=\"middle\"");
  svg += text(16, kRoofTop + kRoofPlotHeight / 2, "FLOP/s (log scale)",
              "text-anchor=\"middle\" transform=\"rotate(-90 16 " + svg_number(kRoofTop + kRoofPlotHeight / 2) + ")\"");

  // The roofs: the bandwidth slope up to the highest ceiling, then each ceiling from its ridge.
  double top_ceiling = r.ceilings.empty() ? y_hi : 0;
  for (const auto& c : r.ceilings) top_ceiling = std::max(top_ceiling, c.flops_per_second);
  // A bandwidth roof from the bottom of the plot to the highest ceiling, labelled along it
  // at `at` of its length.
  const auto slope = [&](double bytes_per_second, const std::string& label, const std::string& style,
                         const std::string& colour_value, double at) {
    const double x0 = std::max(x_lo, y_lo / bytes_per_second), x1 = std::min(x_hi, top_ceiling / bytes_per_second);
    if (x1 <= x0) return;
    const double y0 = y(bytes_per_second * x0), y1 = y(bytes_per_second * x1);
    svg += line(x(x0), y0, x(x1), y1, style);
    const double angle = std::atan2(y1 - y0, x(x1) - x(x0)) * 180 / M_PI;
    const double lx = x(x0) + (x(x1) - x(x0)) * at, ly = y0 + (y1 - y0) * at - 8;
    svg += text(lx, ly, label + " " + format_value(bytes_per_second, "bytes/s"),
                "fill=\"" + colour_value + "\" transform=\"rotate(" + svg_number(angle) + " " + svg_number(lx) + " " +
                    svg_number(ly) + ")\"");
  };
  // DRAM's label halfway up: memory-bound kernels crowd the slope's low end.
  if (bw > 0) slope(bw, "DRAM", "class=\"roof\" stroke=\"#333\" stroke-width=\"2.5\"", "#333", 0.5);
  // L2's, dashed: a kernel's hollow point (FLOP per L2 byte) sits under it.
  if (l2 > 0)
    slope(l2, "L2", "class=\"roof l2\" stroke=\"#2e7d4f\" stroke-width=\"2\" stroke-dasharray=\"7 4\"", "#2e7d4f", 0.3);
  for (const auto& c : r.ceilings) {
    const double from = bw > 0 ? std::max(x_lo, c.flops_per_second / bw) : x_lo;
    svg += line(x(from), y(c.flops_per_second), plot_right, y(c.flops_per_second),
                "class=\"roof\" stroke=\"" + std::string(colour(c.precision)) + "\" stroke-width=\"2.5\"");
    svg += text(plot_right - 4, y(c.flops_per_second) - 6, c.label + " " + rate_label(c.flops_per_second),
                "text-anchor=\"end\" fill=\"" + std::string(colour(c.precision)) + "\"");
  }

  // The points, numbered, and the legend.
  double legend_y = kRoofTop + 6;
  if (!points.empty()) svg += text(kLegendX, legend_y, "Kernels (share of their roof)", "font-weight=\"bold\"");
  legend_y += 20;
  LabelPlacer labels;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const RooflinePoint& p = points[i];
    const std::string n = std::to_string(i + 1);
    const double px = x(std::clamp(p.intensity, x_lo, x_hi)), py = y(std::clamp(p.flops_per_second, y_lo, y_hi));
    std::string tip = p.label + ": " + two_decimals(p.intensity) + " FLOP per byte, " + format_value(p.flops_per_second, "FLOP/s");
    std::string share;
    if (p.roof) share = format_value(100.0 * p.flops_per_second / *p.roof, "%");
    if (!share.empty()) tip += ", " + share + " of its roof";
    if (p.l2_intensity) {
      // The same kernel at its L2 intensity: same FLOP rate, more bytes, so further left.
      const double lx2 = x(std::clamp(*p.l2_intensity, x_lo, x_hi));
      svg += line(lx2, py, px, py, "stroke=\"" + std::string(colour(p.precision)) + "\" stroke-width=\"1\" stroke-dasharray=\"2 3\"");
      svg += "<circle class=\"l2-point\" cx=\"" + svg_number(lx2) + "\" cy=\"" + svg_number(py) + "\" r=\"4.5\" fill=\"white\" stroke=\"" +
             colour(p.precision) + "\" stroke-width=\"2\"><title>" +
             escape_markup(p.label + ": " + two_decimals(*p.l2_intensity) + " FLOP per L2 byte") + "</title></circle>\n";
    }
    svg += "<circle class=\"point\" cx=\"" + svg_number(px) + "\" cy=\"" + svg_number(py) + "\" r=\"5\" fill=\"" +
           colour(p.precision) + "\" stroke=\"white\"><title>" + escape_markup(tip) + "</title></circle>\n";
    const auto [lx, ly] = labels.place(px, py, n.size());
    svg += text(lx, ly, n, "font-size=\"12\" font-weight=\"bold\"");
    svg += "<circle cx=\"" + svg_number(kLegendX + 5) + "\" cy=\"" + svg_number(legend_y - 4) + "\" r=\"5\" fill=\"" +
           colour(p.precision) + "\"/>\n";
    svg += text(kLegendX + 14, legend_y, n + "  " + cut_text(p.label, kLabelChars) + (share.empty() ? "" : " (" + share + ")"),
                "font-size=\"12\"");
    legend_y += 18;
  }
  if (points.empty())
    svg += text(kRoofLeft + kRoofPlotWidth / 2, kRoofTop + kRoofPlotHeight / 2, "no kernel with measured FLOPs and DRAM bytes",
                "text-anchor=\"middle\" fill=\"#6a6a6a\"");
  for (const char* precision : {"sp", "dp"}) {
    const bool used = std::any_of(points.begin(), points.end(), [&](const auto& p) { return p.precision == precision; });
    if (!used) continue;
    svg += "<circle cx=\"" + svg_number(kLegendX + 5) + "\" cy=\"" + svg_number(legend_y - 4) + "\" r=\"5\" fill=\"" +
           colour(precision) + "\"/>\n" +
           text(kLegendX + 14, legend_y, std::string(precision == std::string("sp") ? "FP32" : "FP64") + " FLOPs",
                "font-size=\"12\" fill=\"#444\"");
    legend_y += 18;
  }
  if (l2_points)
    svg += "<circle cx=\"" + svg_number(kLegendX + 5) + "\" cy=\"" + svg_number(legend_y - 4) +
           "\" r=\"4.5\" fill=\"white\" stroke=\"#444\" stroke-width=\"2\"/>\n" +
           text(kLegendX + 14, legend_y, "hollow: the kernel per byte of L2 traffic", "font-size=\"12\" fill=\"#444\"");

  // Kernels that are not points: their DRAM bandwidth against the roof.
  if (!asides.empty()) {
    svg += text(12, aside_top + 12, "Not on the roofline (no FLOPs, or not measured): DRAM bandwidth against the "
                                    + format_value(bw, "bytes/s") + " roof",
                "font-weight=\"bold\"");
    double row = aside_top + 34;
    for (const auto& a : asides) {
      svg += "<g class=\"aside\"><title>" + escape_markup(a.label + ": " + a.reason) + "</title>\n";
      svg += text(12, row, cut_text(a.label, 44) + " — " + a.short_reason, "font-size=\"12\"");
      if (a.dram_bytes_per_second && bw > 0) {
        const double share = *a.dram_bytes_per_second / bw;
        svg += "<rect x=\"" + svg_number(kAsideBarX) + "\" y=\"" + svg_number(row - 11) + "\" width=\"" +
               svg_number(kAsideBarWidth) + "\" height=\"13\" fill=\"#f1f1f1\" stroke=\"#bbb\"/>\n";
        svg += "<rect x=\"" + svg_number(kAsideBarX) + "\" y=\"" + svg_number(row - 11) + "\" width=\"" +
               svg_number(kAsideBarWidth * std::min(1.0, share)) + "\" height=\"13\" fill=\"#7a7a7a\"/>\n";
        svg += text(kAsideBarX + kAsideBarWidth + 8, row,
                    format_value(*a.dram_bytes_per_second, "bytes/s") + " (" + format_value(100 * share, "%") + ")",
                    "font-size=\"12\"");
      } else {
        svg += text(kAsideBarX, row, "DRAM bandwidth not measured", "font-size=\"12\" fill=\"#6a6a6a\" font-style=\"italic\"");
      }
      svg += "</g>\n";
      row += kAsideRow;
    }
  }
  return svg + "</svg>\n";
}

}  // namespace labbook::report
