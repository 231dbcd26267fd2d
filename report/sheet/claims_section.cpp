#include "claims_section.h"

#include <algorithm>
#include <map>
#include <set>

#include "html_page.h"
#include "labbook/model/numbers.h"
#include "labbook/model/text.h"

namespace labbook::report {


namespace {

std::vector<std::string> compared_experiments(const Claim& c) {
  if (c.is_best_claim()) return c.candidates;
  if (c.is_value_claim()) return {c.experiment};
  return {c.numerator, c.denominator};
}


/// The claim without its long asides, for the summary: a parenthesis of more than a few words
/// qualifies the claim, and the claim's section gives it in full.
std::string without_asides(const std::string& text) {
  constexpr std::size_t kLongAside = 40;
  std::string out;
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t open = text.find(" (", at);
    if (open == std::string::npos) break;
    int depth = 0;
    std::size_t close = open + 1;
    for (; close < text.size(); ++close) {
      if (text[close] == '(') ++depth;
      if (text[close] == ')' && --depth == 0) break;
    }
    if (close >= text.size()) break;
    out += text.substr(at, open - at);
    if (close - open <= kLongAside) out += text.substr(open, close + 1 - open);
    at = close + 1;
  }
  return out + text.substr(at);
}

/// What the measured column's header says of the other GPUs' verdicts, shown only where they differ.
std::string agreement(const std::vector<std::string>& beside_gpus) {
  if (beside_gpus.empty()) return "";
  return "; " + join(beside_gpus, ", ") + ": the same verdicts unless named";
}

}  // namespace

Text verdict_text(Verdict verdict) { return Text{badge(verdict_badge(verdict), verdict_word(verdict))}; }

bool JudgedClaim::differs_across_gpus() const {
  return std::any_of(beside.begin(), beside.end(), [&](const ClaimOutcome& o) { return o.verdict != outcome.verdict; });
}

bool ClaimHome::shows(const std::string& experiment) const {
  if (std::find(experiments.begin(), experiments.end(), experiment) != experiments.end()) return true;
  return std::any_of(prefixes.begin(), prefixes.end(), [&](const std::string& p) { return experiment.rfind(p, 0) == 0; });
}

std::vector<JudgedClaim> judge_claims(const LabData& lab, const Measurement& m, Citations& citations,
                                      const std::vector<ClaimHome>& homes, const std::vector<Measurement>& beside) {
  std::vector<JudgedClaim> out;
  for (const auto& c : lab.claims) {
    JudgedClaim j{&c, judge_claim(c, m, lab.peaks), citations.number(c.citation), -1};
    for (const Measurement& other : beside) j.beside.push_back(judge_claim(c, other, lab.peaks));
    const auto compared = compared_experiments(c);
    for (std::size_t h = 0; h < homes.size() && j.home < 0; ++h)
      if (std::any_of(compared.begin(), compared.end(), [&](const std::string& e) { return homes[h].shows(e); }))
        j.home = static_cast<int>(h);
    out.push_back(std::move(j));
  }
  return out;
}

void add_claims_summary(Sheet& sheet, const LabData& lab, const std::vector<JudgedClaim>& claims,
                        const std::vector<ClaimHome>& homes, const std::string& measured_title,
                        const std::vector<std::string>& beside_gpus) {
  if (claims.empty()) return;
  sheet.heading(2, "What the sources claim, checked here");
  // A source every claim shares is named once, in the header, as a GPU every row shares is.
  std::set<std::string> titles;
  for (const auto& j : claims) {
    const SourceDocument* doc = cited_document(lab.sources, j.claim->citation);
    titles.insert(doc ? doc->short_name : "");
  }
  const bool one_source = titles.size() == 1 && !titles.begin()->empty();
  Table t{{one_source ? "The source says (" + *titles.begin() + ")" : "The source says",
           measured_title + agreement(beside_gpus), "Verdict"},
          {}};
  for (const auto& j : claims) {
    const Claim& c = *j.claim;
    const SourceDocument* doc = cited_document(lab.sources, c.citation);
    Text claim{without_asides(c.text) + " "};
    claim.spans.push_back({doc && !one_source ? "(" + doc->short_name + ") [" + std::to_string(j.citation) + "]"
                                              : "[" + std::to_string(j.citation) + "]"});
    Text verdict = verdict_text(j.outcome.verdict);
    verdict.spans.push_back({" "});
    verdict.spans.push_back(j.home < 0 ? Span{"below"}
                                       : link("§ " + std::to_string(j.home + 1), "#" + heading_slug(homes[j.home].heading)));
    // Another GPU's verdict follows in the same cell where it differs.
    for (std::size_t i = 0; i < j.beside.size() && i < beside_gpus.size(); ++i) {
      const ClaimOutcome& other = j.beside[i];
      if (other.verdict == j.outcome.verdict) continue;
      verdict.spans.push_back({" · " + beside_gpus[i] + ": "});
      for (auto& s : verdict_text(other.verdict).spans) verdict.spans.push_back(std::move(s));
      if (other.ratio) verdict.spans.push_back({" " + format_number("×%.2f", other.ratio->value)});
    }
    t.rows.push_back({claim, j.outcome.headline.empty() ? j.outcome.measured : j.outcome.headline, verdict});
    sheet.claims.push_back({c.text, c.citation, j.outcome.verdict, j.outcome.reason,
                            j.home >= 0 ? homes[j.home].heading : "", j.outcome.ratio});
    for (std::size_t i = 0; i < j.beside.size() && i < beside_gpus.size(); ++i) {
      const ClaimOutcome& other = j.beside[i];
      sheet.claims.back().other_gpus.push_back({beside_gpus[i], verdict_line(other.verdict, other.reason)});
    }
  }
  t.is_summary = true;
  sheet.table(std::move(t));
  Sheet reading;
  const std::string drift = format_number("%.0f", kTimedDrift * 100) + " %";
  reading.markdown(
      "Each side of a claim is a median over its repeats, with that median's 95 % confidence interval (up to 8 "
      "repeats: the lowest to the highest). A claim holds when the ratio agrees with it across both intervals, does "
      "not hold when it disagrees across both, and is *inconclusive* (within run-to-run noise) otherwise. Medians "
      "move between two runs too, a kernel's time by up to " + drift +
      " (times the host takes more, where the claim says so), so a ratio within that drift of what the claim "
      "needs decides nothing either way: a ratio within " + drift +
      " of 1.0 never holds that one side is faster. The measured column gives medians; each section gives the "
      "spread and the claim in full. A time measured once on each side says so: its noise was not measured.");
  sheet.fold("How a verdict is reached", std::move(reading));
}

void add_claims_of(Sheet& sheet, const std::vector<JudgedClaim>& claims, int home,
                   const std::vector<std::string>& beside_gpus, Sheet experiment) {
  std::vector<Text> items;
  for (const auto& j : claims) {
    if (j.home != home) continue;
    Text item = verdict_text(j.outcome.verdict);
    item.spans.push_back({" " + j.claim->text + " [" + std::to_string(j.citation) + "] " + j.outcome.measured});
    if (!j.outcome.reason.empty()) item.spans.push_back({": " + j.outcome.reason});
    for (std::size_t i = 0; i < j.beside.size() && i < beside_gpus.size(); ++i) {
      if (j.beside[i].verdict == j.outcome.verdict) continue;
      item.spans.push_back({". On " + beside_gpus[i] + ": " + verdict_word(j.beside[i].verdict) + ", " +
                            j.beside[i].measured + (j.beside[i].reason.empty() ? "" : ": " + j.beside[i].reason)});
      if (!j.claim->across_gpus.empty()) item.spans.push_back({". Why the GPUs differ: " + j.claim->across_gpus});
    }
    items.push_back(std::move(item));
  }
  const bool told = !experiment.blocks.empty();
  if (items.empty()) {
    if (told) sheet.fold("The experiment", std::move(experiment));
    return;
  }
  // The summary above gives each verdict; here the numbers behind them wait under one line.
  std::map<Verdict, int> tally;
  for (const auto& j : claims)
    if (j.home == home) ++tally[j.outcome.verdict];
  std::vector<std::string> counts;
  for (const auto& [verdict, n] : tally) counts.push_back(std::to_string(n) + " " + verdict_word(verdict));
  experiment.list(std::move(items));
  sheet.fold(std::string(told ? "The experiment, and the sources' claims here: " : "The sources' claims here: ") +
                 join(counts, ", "),
             std::move(experiment));
}

}  // namespace labbook::report
