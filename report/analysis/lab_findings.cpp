#include "lab_findings.h"

#include <algorithm>

#include "format.h"
#include "lab_table_reader.h"

namespace labbook::report {

std::vector<ReferenceValue> parse_references(const TomlReader& top, const std::string& origin, const std::vector<ArithmeticPeak>* peaks) {
  std::vector<ReferenceValue> out;
  for (const toml::table* t : top.tables("reference")) {
    const TableReader r(*t, origin, "[[reference]]", peaks);
    r.only({"experiment", "quantity", "value", "unit", "gpu", "build", "citation", "printed", "explanation", "note"});
    ReferenceValue ref;
    ref.experiment = r.string("experiment");
    ref.quantity = r.quantity("quantity");
    ref.value = *r.number("value");
    ref.unit = r.string("unit");
    if (const std::string unit = ref.quantity.unit(); (is_scaled_unit(unit) || is_scaled_unit(ref.unit)) && ref.unit != unit)
      r.fail("unit", "must be '" + unit + "', the unit of '" + ref.quantity.name() + "' (the sheet prints both alike)");
    ref.gpu = r.string("gpu");
    ref.build = r.string("build", false);
    ref.citation = r.string("citation");
    if (ref.citation.find(".txt") == std::string::npos)
      r.fail("citation", "must name a source file (e.g. 003_c67e0f909fb510d6.txt, « section »)");
    ref.printed = r.string("printed", false);
    ref.explanation = r.prose("explanation");
    ref.note = r.string("note", false);
    ref.line = r.line();
    out.push_back(std::move(ref));
  }
  return out;
}

std::vector<Claim> parse_claims(const TomlReader& top, const std::string& origin, const std::vector<ArithmeticPeak>* peaks) {
  std::vector<Claim> out;
  for (const toml::table* t : top.tables("claim")) {
    const TableReader c(*t, origin, "[[claim]]", peaks);
    c.only({"text", "citation", "quantity", "best", "candidates", "lowest", "tolerance", "numerator", "denominator",
            "min_ratio", "max_ratio", "experiment", "at_least", "at_most", "min_effect", "across_gpus"});
    Claim claim;
    claim.text = c.string("text");
    claim.citation = c.string("citation");
    claim.quantity = c.quantity("quantity");
    claim.across_gpus = c.string("across_gpus", false);
    claim.min_effect = c.number("min_effect", false);
    if (claim.min_effect && (*claim.min_effect < 0 || *claim.min_effect >= 1))
      c.fail("min_effect", "must be a share from 0 to below 1 (0.2 for 20 %)");
    claim.best = c.string("best", false);
    claim.experiment = c.string("experiment", false);
    if (claim.is_value_claim()) {
      claim.at_least = c.number("at_least", false);
      claim.at_most = c.number("at_most", false);
      if (!claim.at_least && !claim.at_most) c.fail(t->source(), "needs 'at_least', 'at_most' or both");
      if (claim.at_least && claim.at_most && *claim.at_most < *claim.at_least) c.fail("at_most", "must be at least 'at_least'");
    } else if (claim.is_best_claim()) {
      claim.candidates = c.strings("candidates");
      if (claim.candidates.size() < 2) c.fail("candidates", "must name at least two experiments: a best-of claim compares them");
      if (std::find(claim.candidates.begin(), claim.candidates.end(), claim.best) == claim.candidates.end())
        c.fail("best", "must be one of 'candidates'");
      claim.lowest = c.boolean("lowest", true);
      claim.tolerance = c.number("tolerance", false).value_or(0.0);
    } else {
      claim.numerator = c.string("numerator");
      claim.denominator = c.string("denominator");
      const auto min_ratio = c.number("min_ratio", false);
      claim.max_ratio = c.number("max_ratio", false);
      if (!min_ratio && !claim.max_ratio) c.fail(t->source(), "needs 'min_ratio', 'max_ratio' or both");
      claim.min_ratio = min_ratio.value_or(0.0);
      if (claim.max_ratio && *claim.max_ratio < claim.min_ratio) c.fail("max_ratio", "must be at least 'min_ratio'");
    }
    out.push_back(std::move(claim));
  }
  return out;
}

std::vector<Check> parse_checks(const TomlReader& top, const std::string& origin, const std::vector<ArithmeticPeak>* peaks, bool has_model) {
  std::vector<Check> out;
  for (const toml::table* t : top.tables("check")) {
    const TableReader c(*t, origin, "[[check]]", peaks);
    c.only({"experiments", "quantity", "value", "tolerance", "at_least", "at_most", "relative_to", "fraction", "as_predicted"});
    Check check;
    check.experiments = c.string("experiments");
    check.quantity = c.quantity("quantity");
    check.value = c.number("value", false);
    check.tolerance = c.number("tolerance", false).value_or(0.0);
    check.at_least = c.number("at_least", false);
    check.at_most = c.number("at_most", false);
    check.relative_to = c.string("relative_to", false);
    check.fraction = c.number("fraction", false).value_or(1.0);
    check.as_predicted = c.boolean("as_predicted", false);
    check.line = c.line();
    const int kinds = (check.value ? 1 : 0) + (check.at_least ? 1 : 0) + (check.at_most ? 1 : 0) +
                      (check.relative_to.empty() ? 0 : 1) + (check.as_predicted ? 1 : 0);
    if (kinds != 1)
      c.fail(t->source(), "needs exactly one of 'value', 'at_least', 'at_most', 'relative_to', 'as_predicted = true'");
    if (check.as_predicted && !has_model) c.fail("as_predicted", "needs a [model] table");
    out.push_back(std::move(check));
  }
  return out;
}

}  // namespace labbook::report
