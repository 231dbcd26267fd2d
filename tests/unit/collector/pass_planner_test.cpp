// The pass planner against CUPTI's Profiler Host API, which needs the chip's name but no GPU.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "labbook/model/metric_catalog.h"
#include "pass_planner.h"

using namespace labbook::profiler;

TEST(PassPlanner, GivesAMetricWhoseCountersShareNoPassARunPerPass) {
  // On GH100 the L2 hit rate's hit and miss counters share no pass (checked with the host
  // API); DRAM bytes and the duration share one.
  const PassPlan plan =
      plan_pass_groups("GH100", {}, {"dram__bytes_read.sum", "lts__t_sector_hit_rate.pct", "gpu__time_duration.sum"});
  ASSERT_EQ(plan.problem, "");
  ASSERT_EQ(plan.groups.size(), 2u);
  EXPECT_EQ(plan.groups[0], (PassGroup{{"dram__bytes_read.sum", "gpu__time_duration.sum"}, 1}));
  EXPECT_EQ(plan.groups[1], (PassGroup{{"lts__t_sector_hit_rate.pct"}, 2}));
  EXPECT_EQ(plan.runs(), 3);
  std::string problem;
  EXPECT_EQ(passes_needed("GH100", {}, plan.groups[1].metrics, problem), 2);
}

TEST(PassPlanner, PutsAllMetricsInOneCarriedGroupWhereThatTakesFewerRuns) {
  const std::vector<std::string> metrics = {"dram__bytes_read.sum", "lts__t_sector_hit_rate.pct", "gpu__time_duration.sum"};
  std::string problem;
  const int together = passes_needed("GH100", {}, metrics, problem);
  ASSERT_EQ(problem, "");
  ASSERT_LT(together, 3) << "the three share passes: the check below can tell the plans apart";
  const PassPlan one = plan_pass_groups("GH100", {}, metrics, Carrying::AllInOneBatch);
  ASSERT_EQ(one.problem, "");
  ASSERT_EQ(one.groups.size(), 1u);
  EXPECT_EQ(one.groups[0], (PassGroup{metrics, together}));
  EXPECT_EQ(one.runs(), together);
  // Where the passes together are no fewer than the first-fit plan's runs, the first-fit plan.
  const std::vector<std::string> single = {"dram__bytes_read.sum", "gpu__time_duration.sum"};
  EXPECT_EQ(plan_pass_groups("GH100", {}, single, Carrying::AllInOneBatch).groups,
            plan_pass_groups("GH100", {}, single, Carrying::MultiPassMetricsOnly).groups);
  // The two kinds of plan are cached apart: a plan for one batch must not serve more launches.
  setenv("XDG_CACHE_HOME", testing::TempDir().c_str(), 1);
  EXPECT_NE(cached_plan_path("GH100", metrics, Carrying::AllInOneBatch),
            cached_plan_path("GH100", metrics, Carrying::MultiPassMetricsOnly));
}

TEST(PassPlanner, NamesWhatTheHostApiRejects) {
  const PassPlan plan = plan_pass_groups("GH100", {}, {"no_such__metric.sum"});
  EXPECT_NE(plan.problem.find("no_such__metric.sum"), std::string::npos) << plan.problem;
}

TEST(PassPlanner, KnowsEveryCatalogInputOnGH100) {
  // The catalog maps nvprof's names to Perfworks ones by hand: each must be a metric the H100
  // (GH100) has, or the collector would fail on the GPU for a typo found only there.
  std::string misspelt;
  ASSERT_EQ(passes_needed("GH100", {}, {"lts__t_sectors_srcunit_tex_op_reads.sum"}, misspelt), 0) << "the check can fail";
  for (const auto& metric : labbook::metric_catalog())
    for (const auto& input : metric.inputs) {
      std::string problem;
      EXPECT_GT(passes_needed("GH100", {}, {input}, problem), 0) << metric.name << ": " << input << ": " << problem;
    }
}
