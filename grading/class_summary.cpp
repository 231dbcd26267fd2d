#include "class_summary.h"

#include <algorithm>
#include <map>
#include <set>

#include "labbook/model/numbers.h"

namespace labbook::grading {

namespace {
std::string number(double v, const char* format = "%.2f") { return format_number(format, v); }
}  // namespace

std::string score_histogram_svg(const std::vector<Score>& scores, int bins) {
  std::vector<int> count(static_cast<std::size_t>(bins), 0);
  for (const auto& s : scores) {
    const double share = s.max_total > 0 ? s.total / s.max_total : 0;
    count[static_cast<std::size_t>(std::clamp(static_cast<int>(share * bins), 0, bins - 1))]++;
  }
  const int most = std::max(1, *std::max_element(count.begin(), count.end()));
  const double bar = 48, height = 160, left = 30, top = 20;
  std::string svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + number(left + bar * bins + 10, "%.0f") +
                    "\" height=\"" + number(top + height + 40, "%.0f") + "\" font-family=\"sans-serif\" font-size=\"11\">\n"
                    "<title>Scores, % of the maximum</title>\n";
  for (int b = 0; b < bins; ++b) {
    const double h = height * count[static_cast<std::size_t>(b)] / most, x = left + bar * b;
    svg += "<rect x=\"" + number(x + 3, "%.0f") + "\" y=\"" + number(top + height - h, "%.1f") + "\" width=\"" +
           number(bar - 6, "%.0f") + "\" height=\"" + number(h, "%.1f") + "\" fill=\"#2f6fb0\"/>";
    svg += "<text x=\"" + number(x + bar / 2, "%.0f") + "\" y=\"" + number(top + height - h - 4, "%.1f") +
           "\" text-anchor=\"middle\">" + std::to_string(count[static_cast<std::size_t>(b)]) + "</text>";
    svg += "<text x=\"" + number(x + bar / 2, "%.0f") + "\" y=\"" + number(top + height + 16, "%.0f") +
           "\" text-anchor=\"middle\">" + std::to_string(100 * b / bins) + "–" + std::to_string(100 * (b + 1) / bins) +
           "</text>\n";
  }
  svg += "<text x=\"" + number(left, "%.0f") + "\" y=\"" + number(top + height + 34, "%.0f") +
         "\">score, % of the maximum</text>\n</svg>\n";
  return svg;
}

report::Sheet class_summary(const Rubric& rubric, const std::vector<Score>& scores) {
  report::Sheet sheet;
  sheet.title = rubric.title + " — class summary";
  sheet.heading(1, sheet.title);
  std::vector<double> totals;
  for (const auto& s : scores) totals.push_back(s.total);
  std::sort(totals.begin(), totals.end());
  const double median = totals.empty() ? 0 : totals[totals.size() / 2];
  sheet.lines({report::Text{{std::to_string(scores.size()) + " submissions graded; median score " + number(median) + " of " +
                             number(rubric.max_points()) + "."}}});
  sheet.figures.push_back({"score-histogram.svg", score_histogram_svg(scores)});
  sheet.markdown("![Score distribution](score-histogram.svg)");

  // Why points were lost: every reason a student lost points for, counted once per student. A
  // measured criterion below full marks carries no note: its title is the reason.
  std::map<std::string, int> causes;
  for (const auto& s : scores) {
    std::set<std::string> reasons;
    for (const auto& c : s.criteria) {
      const bool lost = c.criterion ? c.points < c.criterion->points : !c.note.empty();
      if (lost) reasons.insert(!c.note.empty() ? c.note : c.criterion->title + ": below full marks");
    }
    for (const auto& r : reasons) causes[r]++;
  }
  std::vector<std::pair<std::string, int>> ranked(causes.begin(), causes.end());
  std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  sheet.heading(2, "Most common reasons points were lost");
  if (ranked.empty()) {
    sheet.markdown("None: every submission scored every point it could.");
  } else {
    report::Table t{{"Reason", "Students"}, {}};
    for (std::size_t i = 0; i < ranked.size() && i < 8; ++i) t.rows.push_back({ranked[i].first, std::to_string(ranked[i].second)});
    sheet.table(std::move(t));
  }
  return sheet;
}

}  // namespace labbook::grading
