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

/// Medians of one GPU kernel's time move by up to about 2 % between two runs of a lab on one
/// GPU (H200, every lab run twice: median 0.3 %, 90th percentile 3 % with the host's copies).
/// A timed ratio closer to 1.0 than this is no finding, whatever the repeats of one run say.
constexpr double kTimedDrift = 0.02;

/// The smallest difference that counts for `claim`: its own min_effect, else kTimedDrift for
/// a timed quantity and 0 for a counter, which repeats exactly.
double smallest_effect(const Claim& claim);

/// A ratio claim's band: at least `min`, at most `max` where there is one.
struct Band {
  double min = 0;
  std::optional<double> max;
};

/// Decides a ratio's interval against `band` where medians drift by `drift` between runs: it
/// holds when the interval lies inside the band by more than the drift at each edge, does not
/// hold when it lies outside by more than that, and an interval within the drift of an edge
/// decides nothing. At a claim's edge of 1.00 ("A is faster"), a ratio within 2 % of 1.0
/// therefore neither holds nor fails.
Verdict judge_with_drift(double low, double high, const Band& band, double drift);

/// The ratio of two measured values with its noise: the medians' ratio, and the lowest and
/// highest ratio the two medians' 95 % intervals allow (QuantityValue::median_interval).
struct Ratio {
  double value = 0, low = 0, high = 0;
};
Ratio ratio_of(const QuantityValue& numerator, const QuantityValue& denominator);

/// Whether `values` of `quantity` are single runs of a quantity that moves from run to run:
/// then nothing decided on them can know the noise.
bool noise_unknown(const Quantity& quantity, std::initializer_list<const QuantityValue*> values);

/// Two measured values are told apart when their medians' 95 % intervals do not overlap and
/// the medians differ by more than `tolerance` (relative to `b`).
bool distinguishable(const QuantityValue& a, const QuantityValue& b, double tolerance);

struct ClaimOutcome {
  Verdict verdict = Verdict::kCannotBeChecked;
  std::string measured;   ///< what was compared, with units and the repeats' spread
  std::string headline;   ///< the same in a few words, medians only: for the summary
  std::string reason;     ///< follows the verdict's name: why, in the claim's own direction
  std::optional<Ratio> ratio;
};

/// Decides `claim` on `m`. A ratio claim is decided by judge_with_drift on the ratio's 95 %
/// interval, a value claim on the value's; a "best of" claim holds when the claimed candidate
/// is the lowest (highest) and beats the runner-up beyond the noise, the claim's tolerance and
/// its smallest effect.
ClaimOutcome judge_claim(const Claim& claim, const Measurement& m, const std::vector<ArithmeticPeak>& peaks);

}  // namespace labbook::report
