#pragma once
/// @file
/// The counters of a harness call's kernels as if of one kernel, and the counters a run must
/// collect for that (the sectors that weight an efficiency).
#include <map>
#include <string>
#include <vector>

#include "labbook/model/measurement.h"

namespace labbook::grading {

/// The counters of several kernels as if of one: sums add up, efficiencies average weighted
/// by sectors; anything else (rates, peaks) only for a single kernel. A counter some kernel
/// lacks is left out rather than summed in part.
std::map<std::string, double> combined_counters(const std::vector<const Kernel*>& kernels);

/// `cupti_metrics` plus the counters audit_calls() needs to combine them over a call's
/// kernels (the sectors that weight an efficiency): without them an efficiency is not measured.
std::vector<std::string> with_combining_weights(std::vector<std::string> cupti_metrics);

}  // namespace labbook::grading
