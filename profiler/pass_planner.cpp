#include "pass_planner.h"

#include <filesystem>
#include <system_error>

#include <cupti.h>
#include <cupti_profiler_host.h>

#include "cache_folder.h"
#include "cupti_status.h"
#include "labbook/model/text.h"

namespace labbook::profiler {

int passes_needed(const std::string& chip, const std::vector<std::uint8_t>& availability,
                  const std::vector<std::string>& metrics, std::string& problem) {
  std::vector<const char*> names;
  for (const auto& m : metrics) names.push_back(m.c_str());
  auto init = LABBOOK_PARAMS(CUpti_Profiler_Host_Initialize_Params);
  init.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
  init.pChipName = chip.c_str();
  init.pCounterAvailabilityImage = availability.empty() ? nullptr : availability.data();
  if (CUptiResult s = cuptiProfilerHostInitialize(&init); s != CUPTI_SUCCESS) {
    problem = describe_call("cuptiProfilerHostInitialize", s);
    return 0;
  }
  int passes = 0;
  auto add = LABBOOK_PARAMS(CUpti_Profiler_Host_ConfigAddMetrics_Params);
  add.pHostObject = init.pHostObject;
  add.ppMetricNames = names.data();
  add.numMetrics = names.size();
  auto size = LABBOOK_PARAMS(CUpti_Profiler_Host_GetConfigImageSize_Params);
  size.pHostObject = init.pHostObject;
  CUptiResult s = cuptiProfilerHostConfigAddMetrics(&add);
  if (s == CUPTI_SUCCESS) s = cuptiProfilerHostGetConfigImageSize(&size);
  std::vector<std::uint8_t> image(size.configImageSize);
  if (s == CUPTI_SUCCESS) {
    auto get = LABBOOK_PARAMS(CUpti_Profiler_Host_GetConfigImage_Params);
    get.pHostObject = init.pHostObject;
    get.configImageSize = image.size();
    get.pConfigImage = image.data();
    s = cuptiProfilerHostGetConfigImage(&get);
  }
  if (s == CUPTI_SUCCESS) {
    auto count = LABBOOK_PARAMS(CUpti_Profiler_Host_GetNumOfPasses_Params);
    count.configImageSize = image.size();
    count.pConfigImage = image.data();
    s = cuptiProfilerHostGetNumOfPasses(&count);
    passes = static_cast<int>(count.numOfPasses);
  }
  if (s != CUPTI_SUCCESS) problem = describe_call(("configuring " + join(metrics, ",")).c_str(), s);
  auto deinit = LABBOOK_PARAMS(CUpti_Profiler_Host_Deinitialize_Params);
  deinit.pHostObject = init.pHostObject;
  cuptiProfilerHostDeinitialize(&deinit);
  return s == CUPTI_SUCCESS ? passes : 0;
}

namespace {

/// Metrics first-fit into groups of one pass; a multi-pass metric alone.
PassPlan first_fit_groups(const std::string& chip, const std::vector<std::uint8_t>& availability,
                          const std::vector<std::string>& metrics) {
  PassPlan plan;
  for (const auto& metric : metrics) {
    bool placed = false;
    for (auto& group : plan.groups) {
      if (group.passes > 1) continue;   // a multi-pass metric keeps its runs to itself
      auto trial = group.metrics;
      trial.push_back(metric);
      if (passes_needed(chip, availability, trial, plan.problem) == 1) {
        group.metrics = std::move(trial);
        placed = true;
        break;
      }
      if (!plan.problem.empty()) return plan;
    }
    if (placed) continue;
    const int alone = passes_needed(chip, availability, {metric}, plan.problem);
    if (!plan.problem.empty()) return plan;
    plan.groups.push_back({{metric}, alone});
  }
  return plan;
}

}  // namespace

PassPlan plan_pass_groups(const std::string& chip, const std::vector<std::uint8_t>& availability,
                          const std::vector<std::string>& metrics, Carrying carrying) {
  PassPlan plan = first_fit_groups(chip, availability, metrics);
  if (carrying != Carrying::AllInOneBatch || !plan.problem.empty() || plan.runs() <= 1) return plan;
  std::string problem;
  const int together = passes_needed(chip, availability, metrics, problem);
  if (problem.empty() && together > 0 && together < plan.runs()) return PassPlan{{{metrics, together}}, ""};
  return plan;
}

std::string cached_plan_path(const std::string& chip, const std::vector<std::string>& metrics, Carrying carrying) {
  const std::string folder = cache_folder(kPlanCacheKind);
  if (folder.empty()) return "";
  std::error_code error;
  std::filesystem::create_directories(folder, error);
  if (error) return "";
  std::uint32_t version = 0;
  cuptiGetVersion(&version);
  return plan_cache_file(folder, chip, static_cast<int>(version), metrics, carrying);
}

}  // namespace labbook::profiler
