#include "bar_chart.h"

#include <algorithm>

#include "format.h"

namespace labbook::report {

namespace {
constexpr double kLabelWidth = 190, kPlotWidth = 520, kValueWidth = 110, kBar = 11, kGap = 9, kTop = 64;
}  // namespace

std::string bar_chart_svg(const std::string& title, const std::vector<Bar>& bars, const std::string& unit,
                          const std::string& source_label) {
  double top = 0;
  for (const auto& b : bars) top = std::max({top, b.source.value_or(0), b.measured.value_or(0)});
  if (top <= 0) top = 1;
  const double row = 2 * kBar + kGap;
  const double width = kLabelWidth + kPlotWidth + kValueWidth, height = kTop + row * static_cast<double>(bars.size()) + 10;
  std::string svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + svg_number(width) + "\" height=\"" + svg_number(height) +
                    "\" viewBox=\"0 0 " + svg_number(width) + " " + svg_number(height) +
                    "\" font-family=\"sans-serif\" font-size=\"11\">\n"
                    "<title>" + escape_markup(title) + "</title>\n"
                    "<text x=\"4\" y=\"16\" font-size=\"13\" font-weight=\"bold\">" + escape_markup(title) + "</text>\n"
                    "<rect x=\"" + svg_number(kLabelWidth) + "\" y=\"26\" width=\"10\" height=\"10\" fill=\"#b0b0b0\"/>"
                    "<text x=\"" + svg_number(kLabelWidth + 14) + "\" y=\"35\">" + escape_markup(source_label) + "</text>\n"
                    "<rect x=\"" + svg_number(kLabelWidth) + "\" y=\"42\" width=\"10\" height=\"10\" fill=\"#2f6fb0\"/>"
                    "<text x=\"" + svg_number(kLabelWidth + 14) + "\" y=\"51\">measured here</text>\n";
  double y = kTop;
  for (const auto& b : bars) {
    svg += "<text x=\"" + svg_number(kLabelWidth - 6) + "\" y=\"" + svg_number(y + kBar + 4) + "\" text-anchor=\"end\">" +
           escape_markup(b.label) + "</text>\n";
    auto bar = [&](const std::optional<double>& v, double at, const char* colour) {
      if (!v) return;
      const double w = kPlotWidth * *v / top;
      svg += "<rect x=\"" + svg_number(kLabelWidth) + "\" y=\"" + svg_number(at) + "\" width=\"" + svg_number(w) + "\" height=\"" +
             svg_number(kBar - 1) + "\" fill=\"" + colour + "\"/><text x=\"" + svg_number(kLabelWidth + w + 4) + "\" y=\"" +
             svg_number(at + kBar - 2) + "\">" + escape_markup(format_value(*v, unit)) + "</text>\n";
    };
    bar(b.source, y, "#b0b0b0");
    bar(b.measured, y + kBar, "#2f6fb0");
    y += row;
  }
  return svg + "</svg>\n";
}

}  // namespace labbook::report
