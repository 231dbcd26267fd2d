#include "claim_verdict.h"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <vector>

#include "format.h"

namespace labbook::report {

double smallest_effect(const Claim& claim) {
  return claim.min_effect.value_or(claim.quantity.timed() ? kTimedDrift : 0.0);
}

bool noise_unknown(const Quantity& quantity, std::initializer_list<const QuantityValue*> values) {
  if (!quantity.timed()) return false;
  for (const QuantityValue* v : values)
    if (v->samples.size() > 1) return false;
  return true;
}

bool distinguishable(const QuantityValue& a, const QuantityValue& b, double tolerance) {
  const auto [a_low, a_high] = a.median_interval();
  const auto [b_low, b_high] = b.median_interval();
  const bool overlap = a_low <= b_high && b_low <= a_high;
  return !overlap && std::fabs(*a.value - *b.value) > tolerance * std::fabs(*b.value);
}

namespace {

/// "67.3 µs" or, when the repeats differ, "67.3 µs (67.1 µs to 67.9 µs over 4 repeats)".
std::string with_noise(const QuantityValue& v, const std::string& unit) {
  std::string out = format_value(*v.value, unit);
  if (v.varies())
    out += " (" + format_value(v.low(), unit) + " to " + format_value(v.high(), unit) + " over " +
           std::to_string(v.samples.size()) + " repeats)";
  return out;
}

/// " or 2.00 %" for a claim's tolerance, "" for none.
std::string or_tolerance(double tolerance) { return tolerance > 0 ? " (or " + two_decimals(tolerance * 100) + " %)" : ""; }

constexpr const char* kOneRunEach = "one run each: the noise was not measured";

/// "the 2 % by which runs drift".
std::string by_drift(double drift) { return "the " + format_number("%.0f", drift * 100) + " % by which runs drift"; }

/// Why two values were not told apart, ending in `of_what` (" of it"): their repeats overlap
/// (or lie within the claim's tolerance), or, with one run each, only the tolerance.
/// A best-of claim's tolerance: its own, or the smallest effect where that is larger.
double best_tolerance(const Claim& c) { return std::max(c.tolerance, smallest_effect(c)); }

std::string too_close(const Claim& c, const QuantityValue& a, const QuantityValue& b, const std::string& of_what) {
  const double tolerance = best_tolerance(c);
  if (!noise_unknown(c.quantity, {&a, &b})) return "within run-to-run noise" + or_tolerance(tolerance) + of_what;
  return "within the claim's tolerance (" + two_decimals(tolerance * 100) + " %)" + of_what + "; " + kOneRunEach;
}

ClaimOutcome judge_ratio(const Claim& c, const Measurement& m, const std::vector<ArithmeticPeak>& peaks) {
  const std::string unit = c.quantity.unit();
  const QuantityValue num = range_quantity(m, c.numerator, c.quantity, peaks);
  const QuantityValue den = range_quantity(m, c.denominator, c.quantity, peaks);
  ClaimOutcome out;
  if (!num.value || !den.value || *den.value == 0 || *num.value == 0 || den.low() <= 0) {
    out.measured = !num.value ? num.missing : !den.value ? den.missing : "a value of zero, no ratio";
    return out;
  }
  const Ratio r = ratio_of(num, den);
  out.ratio = r;
  out.measured = c.numerator + ": " + with_noise(num, unit) + "; " + c.denominator + ": " + with_noise(den, unit);
  // "×1.81: A 1971.0 against B 1091.7 GB/s": a unit both values share is written once.
  std::string num_text = format_value(*num.value, unit);
  const std::string den_text = format_value(*den.value, unit);
  const std::size_t space = den_text.rfind(' ');
  if (space != std::string::npos && num_text.size() > den_text.size() - space &&
      num_text.compare(num_text.size() - (den_text.size() - space), std::string::npos, den_text, space) == 0)
    num_text.resize(num_text.size() - (den_text.size() - space));
  out.headline =
      "×" + format_ratio(r.value) + ": " + c.numerator + " " + num_text + " against " + c.denominator + " " + den_text;
  const Band band{c.min_ratio, c.max_ratio};
  const double drift = smallest_effect(c);
  out.verdict = judge_with_drift(r.low, r.high, band, drift);
  std::string ratio = "ratio " + format_ratio(r.value);
  if (r.low != r.high) ratio += " (" + format_ratio(r.low) + " to " + format_ratio(r.high) + " with the repeats' noise)";
  else if (noise_unknown(c.quantity, {&num, &den})) ratio += std::string(" (") + kOneRunEach + ")";
  out.reason = ratio + "; the claim needs " + band_text(band.min, band.max);
  if (out.verdict != Verdict::kInconclusive)
    out.reason += drift > 0 ? ", by more than " + by_drift(drift) : "";
  else if (judge_interval(r.low, r.high, band.min, band.max) == Verdict::kInconclusive)
    out.reason += ": some repeats meet it, others do not";
  else
    out.reason += ", and the ratio lies within " + by_drift(drift) + " of it";
  return out;
}

ClaimOutcome judge_value(const Claim& c, const Measurement& m, const std::vector<ArithmeticPeak>& peaks) {
  const std::string unit = c.quantity.unit();
  const QuantityValue v = range_quantity(m, c.experiment, c.quantity, peaks);
  ClaimOutcome out;
  if (!v.value) {
    out.measured = v.missing;
    return out;
  }
  out.measured = c.experiment + ": " + with_noise(v, unit);
  out.headline = format_value(*v.value, unit) + ": " + c.experiment;
  const auto [low, high] = v.median_interval();
  const double drift = smallest_effect(c);
  out.verdict = judge_with_drift(low, high, {c.at_least.value_or(-INFINITY), c.at_most}, drift);
  const std::string bound = c.at_least && c.at_most ? format_value(*c.at_least, unit) + " to " + format_value(*c.at_most, unit)
                            : c.at_least           ? "≥ " + format_value(*c.at_least, unit)
                                                   : "≤ " + format_value(*c.at_most, unit);
  out.reason = format_value(*v.value, unit) +
               (noise_unknown(c.quantity, {&v}) ? " (one run: the noise was not measured)" : "") +
               "; the claim needs " + bound;
  if (out.verdict != Verdict::kInconclusive)
    out.reason += drift > 0 ? ", by more than " + by_drift(drift) : "";
  else
    out.reason += ": the value lies within the noise of it";
  return out;
}

ClaimOutcome judge_best(const Claim& c, const Measurement& m, const std::vector<ArithmeticPeak>& peaks) {
  const std::string unit = c.quantity.unit();
  const std::string extreme = c.lowest ? "lowest" : "highest";
  ClaimOutcome out;
  using Candidate = std::pair<std::string, QuantityValue>;
  std::vector<Candidate> values;
  for (const auto& candidate : c.candidates) {
    QuantityValue v = range_quantity(m, candidate, c.quantity, peaks);
    if (v.value) {
      out.measured += (out.measured.empty() ? "" : "; ") + candidate + " " + with_noise(v, unit);
      values.emplace_back(candidate, std::move(v));
    }
  }
  if (values.size() != c.candidates.size()) {
    if (out.measured.empty()) out.measured = "not measured";
    out.reason = "not every candidate was measured";
    return out;
  }
  // Best first, in the claim's direction.
  std::stable_sort(values.begin(), values.end(), [&](const Candidate& a, const Candidate& b) {
    return c.lowest ? *a.second.value < *b.second.value : *a.second.value > *b.second.value;
  });
  const auto& [winner, winner_value] = values[0];
  const auto claimed = std::find_if(values.begin(), values.end(), [&](const auto& v) { return v.first == c.best; });
  const Candidate& second = claimed == values.begin() ? values[1] : *claimed;
  out.headline = extreme + ": " + winner + " " + format_value(*winner_value.value, unit) + "; " +
                 (claimed == values.begin() ? "next " : "") + second.first + " " + format_value(*second.second.value, unit);
  if (claimed == values.begin()) {
    const auto& [runner_up, runner_up_value] = values[1];
    if (distinguishable(winner_value, runner_up_value, best_tolerance(c))) {
      out.verdict = Verdict::kHolds;
      out.reason = c.best + " is the " + extreme + " (" + format_value(*winner_value.value, unit) + "), ahead of " +
                   runner_up + " (" + format_value(*runner_up_value.value, unit) + ")" +
                   (noise_unknown(c.quantity, {&winner_value, &runner_up_value}) ? std::string("; ") + kOneRunEach
                                                                                  : std::string(" beyond the noise"));
    } else {
      out.verdict = Verdict::kInconclusive;
      out.reason = c.best + " is the " + extreme + " (" + format_value(*winner_value.value, unit) + "), but " + runner_up +
                   " (" + format_value(*runner_up_value.value, unit) + ") is " +
                   too_close(c, winner_value, runner_up_value, " of it");
    }
    return out;
  }
  const std::string measured_best =
      "the " + extreme + " is " + winner + " (" + format_value(*winner_value.value, unit) + "), not " + c.best + " (" +
      format_value(*claimed->second.value, unit) + ")";
  if (distinguishable(claimed->second, winner_value, best_tolerance(c))) {
    out.verdict = Verdict::kDoesNotHold;
    out.reason = measured_best;
    if (noise_unknown(c.quantity, {&claimed->second, &winner_value})) out.reason += std::string("; ") + kOneRunEach;
  } else {
    out.verdict = Verdict::kInconclusive;
    out.reason = measured_best + "; the two are " + too_close(c, claimed->second, winner_value, " of each other");
  }
  return out;
}

}  // namespace

std::string verdict_word(Verdict v) {
  switch (v) {
    case Verdict::kHolds: return "holds";
    case Verdict::kDoesNotHold: return "does not hold";
    case Verdict::kInconclusive: return "inconclusive";
    case Verdict::kCannotBeChecked: break;
  }
  return "cannot be checked";
}

std::string verdict_name(Verdict v) {
  switch (v) {
    case Verdict::kHolds: case Verdict::kDoesNotHold: return verdict_word(v) + " here";
    case Verdict::kInconclusive: return verdict_word(v) + " (within run-to-run noise)";
    case Verdict::kCannotBeChecked: break;
  }
  return verdict_word(v);
}

Badge verdict_badge(Verdict v) {
  switch (v) {
    case Verdict::kHolds: return Badge::kHolds;
    case Verdict::kDoesNotHold: return Badge::kDoesNotHold;
    case Verdict::kInconclusive: return Badge::kInconclusive;
    case Verdict::kCannotBeChecked: break;
  }
  return Badge::kUnchecked;
}

Verdict judge_interval(double low, double high, double min, std::optional<double> max) {
  const double top = max.value_or(INFINITY);
  if (low >= min && high <= top) return Verdict::kHolds;
  if (high < min || low > top) return Verdict::kDoesNotHold;
  return Verdict::kInconclusive;
}

Verdict judge_with_drift(double low, double high, const Band& band, double drift) {
  const double grow = 1 + drift;
  const double top = band.max.value_or(INFINITY);
  // A band narrower than twice the drift would never hold: its own edges decide holding.
  const bool narrow = band.min * grow > top / grow;
  if (low >= (narrow ? band.min : band.min * grow) && high <= (narrow ? top : top / grow)) return Verdict::kHolds;
  if (high < band.min / grow || low > top * grow) return Verdict::kDoesNotHold;
  return Verdict::kInconclusive;
}

std::string band_text(double min, std::optional<double> max) {
  if (!max) return "≥ " + format_ratio(min);
  if (min <= 0) return "≤ " + format_ratio(*max);
  return format_ratio(min) + " to " + format_ratio(*max);
}

Ratio ratio_of(const QuantityValue& numerator, const QuantityValue& denominator) {
  const auto [num_low, num_high] = numerator.median_interval();
  const auto [den_low, den_high] = denominator.median_interval();
  return {*numerator.value / *denominator.value, num_low / den_high, num_high / den_low};
}

ClaimOutcome judge_claim(const Claim& claim, const Measurement& m, const std::vector<ArithmeticPeak>& peaks) {
  if (claim.is_best_claim()) return judge_best(claim, m, peaks);
  return claim.is_value_claim() ? judge_value(claim, m, peaks) : judge_ratio(claim, m, peaks);
}

}  // namespace labbook::report
