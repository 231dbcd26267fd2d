#pragma once
/// @file
/// Two measurements of one lab side by side (`labbook compare`): a student's run against a
/// recording, two GPUs, a program before and after a change. Every value of every question
/// with its ratio and whether the two differ beyond their repeats' spread, and the claims
/// whose verdict changed, with both reasons.
#include <optional>
#include <string>

#include "lab_data.h"
#include "labbook/model/measurement.h"
#include "quantities.h"
#include "sheet.h"

namespace labbook::report {

/// One measurement to compare: its data and how the page names it (a file, "recording").
struct ComparedRun {
  const Measurement& measurement;
  std::string source;
};

/// How two values of one quantity stand.
enum class Difference {
  kSame,            ///< equal medians
  kWithinNoise,     ///< the repeats' ranges overlap
  kBeyondNoise,     ///< they do not: a counter that changed, or repeats apart
  kNoiseUnknown,    ///< a timed quantity measured once on a side: its noise is not known
  kMissing,         ///< one side or both have no value
};

/// `a` against `b`, as a claim is decided (distinguishable): they differ when their medians'
/// 95 % intervals do not overlap (a counter that repeats exactly: when its values differ); a
/// timed value measured once on each side cannot say.
Difference difference(const Quantity& quantity, const QuantityValue& a, const QuantityValue& b);

struct Comparison {
  /// A summary (the runs, what differs, the verdicts that changed), then one section per question.
  Sheet sheet;
  int values = 0, beyond_noise = 0;
  int claims = 0, claims_changed = 0;
};

Comparison compare_runs(const LabData& lab, const ComparedRun& a, const ComparedRun& b);

}  // namespace labbook::report
