#include "comparison.h"

#include <cmath>
#include <map>

#include "claim_verdict.h"
#include "claims_section.h"
#include "format.h"
#include "labbook/model/text.h"
#include "results_table.h"
#include "sheet_builder.h"

namespace labbook::report {

using nlohmann::json;

Difference difference(const Quantity& quantity, const QuantityValue& a, const QuantityValue& b) {
  if (!a.value || !b.value) return Difference::kMissing;
  if (*a.value == *b.value) return Difference::kSame;
  // As a claim decides: overlapping intervals are noise, and one run of a timed value each knows none.
  if (noise_unknown(quantity, {&a, &b})) return Difference::kNoiseUnknown;
  return distinguishable(a, b, 0) ? Difference::kBeyondNoise : Difference::kWithinNoise;
}

namespace {

const char* difference_word(Difference d) {
  switch (d) {
    case Difference::kSame: return "same";
    case Difference::kWithinNoise: return "within the noise";
    case Difference::kBeyondNoise: return "beyond the noise";
    case Difference::kNoiseUnknown: return "noise not measured";
    case Difference::kMissing: return "not on both";
  }
  return "";
}

/// A median, and the repeats' half-spread as a share of it where they vary ("1971.0 GB/s ±0.4 %").
std::string value_text(const QuantityValue& v, const std::string& unit) {
  if (!v.value) return "—";
  std::string out = format_value(*v.value, unit);
  if (v.varies() && *v.value != 0)
    out += " ±" + format_number("%.1f", 50.0 * (v.high() - v.low()) / std::fabs(*v.value)) + " %";
  return out;
}

std::string ratio_text(const QuantityValue& a, const QuantityValue& b) {
  if (!a.value || !b.value || *a.value == 0) return "—";
  return "×" + format_ratio(*b.value / *a.value);
}

std::string run_gpu(const Measurement& m) { return m.devices.empty() ? "unknown GPU" : m.devices.front().name; }

Text verdict_cell(const ClaimRecord& c) {
  Text t = verdict_text(c.verdict);
  if (!c.reason.empty()) t.spans.push_back({": " + c.reason});
  return t;
}

/// The question's rows, those that differ beyond the noise in view and the others folded.
void add_question(Sheet& out, const QuestionRecord& qa, const QuestionRecord& qb, std::map<Difference, int>& tally,
                  json& data) {
  out.heading(2, qa.title);
  const std::vector<Text> header = {"Experiment", "Quantity", "A", "B", "B / A", "Difference"};
  Table apart{header, {}}, alike{header, {}};
  json rows = json::array();
  for (std::size_t r = 0; r < qa.rows.size() && r < qb.rows.size(); ++r) {
    const ResultRecord& a = qa.rows[r];
    const ResultRecord& b = qb.rows[r];
    const Difference d = difference(a.quantity, a.measured, b.measured);
    ++tally[d];
    std::vector<Text> cells = {experiment_label(a.experiment), a.quantity.label(), value_text(a.measured, a.unit),
                               value_text(b.measured, b.unit), ratio_text(a.measured, b.measured), difference_word(d)};
    (d == Difference::kBeyondNoise || d == Difference::kNoiseUnknown ? apart : alike).rows.push_back(std::move(cells));
    rows.push_back({{"experiment", a.experiment}, {"quantity", a.quantity.name()}, {"a", value_json(a.measured, a.unit)},
                    {"b", value_json(b.measured, b.unit)}, {"difference", difference_word(d)}});
  }
  if (apart.rows.empty()) out.lines({Text{"No value differs beyond the noise."}});
  else out.table(std::move(apart));
  if (!alike.rows.empty()) {
    alike.folded_under = std::to_string(alike.rows.size()) + " values the same or within the noise";
    out.table(std::move(alike));
  }
  data["questions"].push_back({{"title", qa.title}, {"rows", std::move(rows)}});
}

}  // namespace

Comparison compare_runs(const LabData& lab, const ComparedRun& a, const ComparedRun& b) {
  const Sheet sa = build_sheet(lab, a.measurement, {"", true, {}});
  const Sheet sb = build_sheet(lab, b.measurement, {"", true, {}});
  Comparison result;
  Sheet& out = result.sheet;
  out.title = lab.title + ": two runs compared";
  out.heading(1, out.title);
  Table runs{{"Run", "GPU", "Measured", "From"}, {}};
  runs.rows.push_back({"A", run_gpu(a.measurement), a.measurement.program.started_at, a.source});
  runs.rows.push_back({"B", run_gpu(b.measurement), b.measurement.program.started_at, b.source});
  out.table(std::move(runs));
  out.data = {{"lab", lab.id}, {"a", {{"gpu", run_gpu(a.measurement)}, {"measured_at", a.measurement.program.started_at}, {"from", a.source}}},
              {"b", {{"gpu", run_gpu(b.measurement)}, {"measured_at", b.measurement.program.started_at}, {"from", b.source}}},
              {"questions", json::array()}, {"claims", json::array()}};

  // The verdicts that changed come first: they are what a reader of the other run would learn differently.
  Table changed{{"Claim", "A", "B"}, {}}, kept{{"Claim", "A", "B"}, {}};
  for (std::size_t i = 0; i < sa.claims.size() && i < sb.claims.size(); ++i) {
    const ClaimRecord& ca = sa.claims[i];
    const ClaimRecord& cb = sb.claims[i];
    const bool differs = ca.verdict != cb.verdict;
    (differs ? changed : kept).rows.push_back({ca.claim, verdict_cell(ca), verdict_cell(cb)});
    out.data["claims"].push_back({{"claim", ca.claim}, {"a", ca.verdict_line()}, {"b", cb.verdict_line()}, {"changed", differs}});
  }

  std::map<Difference, int> tally;
  Sheet questions;
  for (std::size_t q = 0; q < sa.questions.size() && q < sb.questions.size(); ++q)
    add_question(questions, sa.questions[q], sb.questions[q], tally, out.data);

  out.heading(2, "What differs");
  out.markdown("Two values differ beyond the noise when their medians' 95 % intervals do not overlap (up to 8 "
               "repeats: the ranges of the repeats; a counter that repeats exactly: when its values differ); ± is "
               "half the repeats' range, as a share of the median. A timed value measured once on each side cannot "
               "say.");
  std::vector<std::string> counts;
  for (const auto& [d, n] : tally) counts.push_back(std::to_string(n) + " " + difference_word(d));
  for (const auto& [d, n] : tally) result.values += n;
  result.beyond_noise = tally[Difference::kBeyondNoise];
  result.claims_changed = static_cast<int>(changed.rows.size());
  result.claims = result.claims_changed + static_cast<int>(kept.rows.size());
  out.lines({Text{"Values, B against A: " + join(counts, ", ") + "."},
             Text{std::to_string(changed.rows.size()) + " of " + std::to_string(changed.rows.size() + kept.rows.size()) +
                  " claims change their verdict."}});
  if (!changed.rows.empty()) out.table(std::move(changed));
  if (!kept.rows.empty()) {
    kept.folded_under = std::to_string(kept.rows.size()) + " claims keep their verdict";
    out.table(std::move(kept));
  }
  out.blocks.insert(out.blocks.end(), questions.blocks.begin(), questions.blocks.end());
  return result;
}

}  // namespace labbook::report
