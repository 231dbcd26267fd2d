#pragma once
/// @file
/// Deciding a source's claim ([[claim]]) or a band on a measured value against the
/// run-to-run noise: every repeat of a timed experiment is kept (QuantityValue::samples),
/// and a verdict is "inconclusive" when the repeats fall on both sides of what the claim
/// needs. Counters repeat exactly, so their verdicts never are.
#include <initializer_list>
#include <optional>
#include <string>

#include "lab_data.h"
#include "labbook/model/measurement.h"
#include "quantities.h"
#include "verdict_badge.h"

namespace labbook::report {

enum class Verdict { kHolds, kDoesNotHold, kInconclusive, kCannotBeChecked };

/// "holds here", "does not hold here", "inconclusive (within run-to-run noise)", "cannot be checked".
std::string verdict_name(Verdict);

/// The verdict on a badge, where the sheet explains the words once: "holds", "does not hold",
/// "inconclusive", "cannot be checked".
std::string verdict_word(Verdict);

/// The badge a sheet shows for the verdict.
Badge verdict_badge(Verdict);

/// Where an interval [low, high] lies against the band [min, max] (max: none for no upper
/// bound): inside it entirely, outside it entirely, or across one of its edges.
Verdict judge_interval(double low, double high, double min, std::optional<double> max);

/// The band as a reader reads it: "≥ 1.50", "≤ 1.05", "1.00 to 1.20".
std::string band_text(double min, std::optional<double> max);

/// The ratio of two measured values with its noise: the medians' ratio, and the lowest and
/// highest ratio of one's repeats to the other's.
struct Ratio {
  double value = 0, low = 0, high = 0;
};
Ratio ratio_of(const QuantityValue& numerator, const QuantityValue& denominator);

/// Whether `values` of `quantity` are single runs of a quantity that moves from run to run:
/// then nothing decided on them can know the noise.
bool noise_unknown(const Quantity& quantity, std::initializer_list<const QuantityValue*> values);

/// Two measured values are told apart when their repeats do not overlap and their medians
/// differ by more than `tolerance` (relative to `b`).
bool distinguishable(const QuantityValue& a, const QuantityValue& b, double tolerance);

struct ClaimOutcome {
  Verdict verdict = Verdict::kCannotBeChecked;
  std::string measured;   ///< what was compared, with units and the repeats' spread
  std::string headline;   ///< the same in a few words, medians only: for the summary
  std::string reason;     ///< follows the verdict's name: why, in the claim's own direction
  std::optional<Ratio> ratio;
};

/// Decides `claim` on `m`. A ratio claim holds when every repeat's ratio lies in the band; a
/// "best of" claim holds when the claimed candidate is the lowest (highest) and beats the
/// runner-up beyond both the noise and the claim's tolerance.
ClaimOutcome judge_claim(const Claim& claim, const Measurement& m, const std::vector<ArithmeticPeak>& peaks);

}  // namespace labbook::report
