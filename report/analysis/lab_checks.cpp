#include "lab_checks.h"

#include <fnmatch.h>

#include <algorithm>
#include <cmath>

#include "claim_verdict.h"
#include "format.h"
#include "model_predictions.h"
#include "quantities.h"

namespace labbook::report {

namespace {

std::string shown(const QuantityValue& v, const Quantity& quantity) {
  return v.value ? format_value(*v.value, quantity.unit()) : v.missing;
}


/// The outcome of a bound on a value with run-to-run noise: decided when every repeat
/// agrees, inconclusive (and not a failure) when they fall on both sides.
/// `unit`: how the interval's ends read.
CheckOutcome banded(const std::string& what, double low, double high, double min, std::optional<double> max,
                    const std::string& unit) {
  const Verdict v = judge_interval(low, high, min, max);
  if (v == Verdict::kInconclusive)
    return {true, what + ": inconclusive (within run-to-run noise, " + format_value(low, unit) + " to " +
                      format_value(high, unit) + ")", true};
  return {v == Verdict::kHolds, what};
}

/// One [[check]] on one measured range.
CheckOutcome check_range(const Check& c, const std::string& range, const Measurement& m, const LabData& lab,
                         ModelPredictions& model) {
  const QuantityValue v = range_quantity(m, range, c.quantity, lab.peaks);
  const std::string unit = c.quantity.unit();
  const std::string what = range + " " + c.quantity.name() + " = " + shown(v, c.quantity);
  if (!v.value) return {false, what};
  if (c.value)
    return banded(what + " (want " + format_value(*c.value, unit) + " ± " + format_value(c.tolerance, unit) + ")",
                  v.low(), v.high(), *c.value - c.tolerance, *c.value + c.tolerance, unit);
  if (c.at_least)
    return banded(what + " (want ≥ " + format_value(*c.at_least, unit) + ")", v.low(), v.high(), *c.at_least, std::nullopt,
                  unit);
  if (c.at_most)
    return banded(what + " (want ≤ " + format_value(*c.at_most, unit) + ")", v.low(), v.high(), -INFINITY, *c.at_most, unit);
  if (!c.relative_to.empty()) {
    const QuantityValue base = range_quantity(m, c.relative_to, c.quantity, lab.peaks);
    if (!base.value || *base.value == 0 || base.low() <= 0)
      return {false, what + "; " + c.relative_to + ": " + shown(base, c.quantity)};
    const Ratio r = ratio_of(v, base);
    return banded(what + ", " + format_value(100 * r.value, "%") + " of " + c.relative_to + " (want ≥ " +
                      format_value(100 * c.fraction, "%") + ")",
                  100 * r.low, 100 * r.high, 100 * c.fraction, std::nullopt, "%");
  }
  const Prediction p = model.predict(range, c.quantity);
  if (!p.this_gpu) return {false, what + ": the model predicts nothing here"};
  const std::string verdict = model.verdict(range, c.quantity, v.value);
  const bool ok = verdict == "as predicted" || model.gap_for(range, c.quantity) != nullptr;
  return {ok, what + ", model " + format_value(*p.this_gpu, unit) + ": " + verdict};
}

}  // namespace

std::vector<CheckOutcome> check_measurement(const LabData& lab, const Measurement& m) {
  std::vector<CheckOutcome> out;
  ModelPredictions model(lab, m);
  // Ranges that ran a kernel or a copy, in the order they ran (enclosing ranges hold none),
  // then ranges that carry a number of the program's (a payload).
  std::vector<std::string> measured;
  auto add = [&](const std::string& range) {
    if (!range.empty() && std::find(measured.begin(), measured.end(), range) == measured.end()) measured.push_back(range);
  };
  for (const auto& k : m.kernels) add(k.range);
  for (const auto& c : m.copies) add(c.range);
  for (const auto& r : m.ranges)
    if (r.payload) add(r.path);
  for (const auto& c : lab.checks) {
    std::vector<std::string> ranges;
    // "as predicted" concerns the ranges the model has a kernel for (not a copy's range).
    for (const auto& r : measured)
      if (::fnmatch(c.experiments.c_str(), r.c_str(), 0) == 0 && (!c.as_predicted || lab.model->pattern_for(r)))
        ranges.push_back(r);
    if (ranges.empty())
      out.push_back({false, lab.path + ":" + std::to_string(c.line) + ": no measured range matches '" + c.experiments + "'"});
    for (const auto& r : ranges) out.push_back(check_range(c, r, m, lab, model));
  }

  // Each experiment is one range, except one that carries a number per run (a payload each
  // time): its occurrences are the repeats the report takes the median and the noise of.
  for (const auto& experiment : lab.experiments()) {
    int count = 0;
    bool all_payloads = true;
    for (const auto& r : m.ranges)
      if (r.path == experiment) {
        ++count;
        all_payloads = all_payloads && r.payload.has_value();
      }
    if (count == 0 || (count > 1 && !all_payloads))
      out.push_back({false, "range " + experiment + " appears " + std::to_string(count) + " times in the timeline" +
                                (count > 1 ? ", not every time with a payload" : "")});
  }
  std::size_t inside = 0;
  for (const auto& k : m.kernels) {
    const Range* range = nullptr;
    for (const auto& r : m.ranges)
      if (r.path == k.range) range = &r;
    if (range && k.start_ns && k.end_ns && range->end_ns && *k.start_ns >= range->start_ns && *k.end_ns <= *range->end_ns)
      ++inside;
    else
      out.push_back({false, "kernel " + std::to_string(k.launch) + " (" + k.name + ") is not inside a range (attributed to '" +
                                k.range + "')"});
  }
  out.push_back({!m.kernels.empty(), std::to_string(m.kernels.size()) + " kernels, " + std::to_string(inside) +
                                         " inside the range they are attributed to; " + std::to_string(m.ranges.size()) +
                                         " ranges"});
  return out;
}

}  // namespace labbook::report
