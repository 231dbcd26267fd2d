#pragma once
/// @file
/// A horizontal bar chart as SVG: one row per experiment, a bar for the value a source
/// printed and one for the value measured here, on one scale.
#include <optional>
#include <string>
#include <vector>

namespace labbook::report {

struct Bar {
  std::string label;
  std::optional<double> source, measured;
};

/// `unit` formats the values (format_value); `source_label` names the source's bars, e.g.
/// "source (Tesla M2090)".
std::string bar_chart_svg(const std::string& title, const std::vector<Bar>& bars, const std::string& unit,
                          const std::string& source_label);

}  // namespace labbook::report
