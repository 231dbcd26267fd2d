#pragma once
/// @file
/// Pass planning for application replay: the metric set split into groups that each need
/// a single pass of the counters where they can, so that every run of the program collects
/// one pass with no replay at all. Uses the Profiler Host API only (no GPU work).
#include <cstdint>
#include <string>
#include <vector>

#include "pass_plan.h"

namespace labbook::profiler {

/// Groups `metrics` first-fit into sets whose config needs one pass on `chip` (with the
/// counter availability image of the device). A metric that needs several passes alone
/// gets a group of its own, with as many runs as it needs passes. With
/// Carrying::AllInOneBatch, all metrics in one group instead where their passes together are
/// fewer than those runs.
PassPlan plan_pass_groups(const std::string& chip, const std::vector<std::uint8_t>& availability,
                          const std::vector<std::string>& metrics, Carrying carrying = Carrying::MultiPassMetricsOnly);

/// Passes `metrics` need together on `chip`; 0 and `problem` set when the host API fails.
int passes_needed(const std::string& chip, const std::vector<std::uint8_t>& availability,
                  const std::vector<std::string>& metrics, std::string& problem);

/// Where a plan for `metrics` on `chip` with this CUPTI, planned with `carrying`, is kept
/// between invocations of labbook ($XDG_CACHE_HOME or ~/.cache, under labbook/pass-plans/):
/// planning costs about 0.4 s of host API calls, the same each time. "" when there is no home
/// to cache in.
std::string cached_plan_path(const std::string& chip, const std::vector<std::string>& metrics, Carrying carrying);

}  // namespace labbook::profiler
