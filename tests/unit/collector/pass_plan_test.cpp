#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "cache_folder.h"
#include "pass_plan.h"

using namespace labbook::profiler;

namespace {
std::string temporary_plan() {
  const auto path = (std::filesystem::temp_directory_path() / "labbook-pass-plan-test.txt").string();
  std::remove(path.c_str());
  return path;
}
}  // namespace

TEST(PassPlan, RoundTripsThroughItsFileAndCoversExactlyItsMetrics) {
  const auto path = temporary_plan();
  EXPECT_TRUE(read_plan(path).groups.empty()) << "no file, no plan";
  PassPlan plan;
  plan.groups = {{{"dram__bytes_read.sum", "gpu__time_duration.sum"}, 1}, {{"lts__t_sector_hit_rate.pct"}, 2}};
  write_plan(path, plan);
  const PassPlan back = read_plan(path);
  EXPECT_EQ(back.groups, plan.groups);
  EXPECT_TRUE(plan_covers(back, {"lts__t_sector_hit_rate.pct", "dram__bytes_read.sum", "gpu__time_duration.sum"}));
  EXPECT_FALSE(plan_covers(back, {"dram__bytes_read.sum", "gpu__time_duration.sum"})) << "one metric too many";
  EXPECT_FALSE(plan_covers(back, {"dram__bytes_read.sum", "gpu__time_duration.sum", "lts__t_sector_hit_rate.pct",
                                  "dram__bytes_write.sum"}))
      << "one metric missing";
  std::ofstream(path) << "1 dram__bytes_read.sum\n1 dram__bytes_read.sum\n";
  EXPECT_FALSE(plan_covers(read_plan(path), {"dram__bytes_read.sum"})) << "a damaged plan collects a metric twice";
  std::remove(path.c_str());
}

TEST(PassPlan, APlanWithoutPassCountsIsNoPlan) {
  // An older labbook's plan (no counts) or a damaged line must make the collector plan again,
  // not run a multi-pass metric in one run.
  const auto path = temporary_plan();
  for (const char* text : {"dram__bytes_read.sum\n", "0 dram__bytes_read.sum\n", "x dram__bytes_read.sum\n",
                           "1 dram__bytes_read.sum\nlts__t_sector_hit_rate.pct\n"}) {
    std::ofstream(path) << text;
    EXPECT_TRUE(read_plan(path).groups.empty()) << text;
  }
  std::remove(path.c_str());
}

TEST(PassPlan, NumbersItsRunsPassByPass) {
  PassPlan plan;
  plan.groups = {{{"a.sum", "b.sum"}, 1}, {{"c.pct"}, 3}, {{"d.sum"}, 1}};
  EXPECT_EQ(plan.runs(), 5);
  const int expected[][3] = {{0, 0, 1}, {1, 0, 3}, {1, 1, 3}, {1, 2, 3}, {2, 0, 1}};   // group, pass, passes
  for (int run = 0; run < 5; ++run) {
    const auto r = plan.run(run);
    ASSERT_TRUE(r) << run;
    EXPECT_EQ(static_cast<int>(r->group), expected[run][0]) << run;
    EXPECT_EQ(r->pass, expected[run][1]) << run;
    EXPECT_EQ(r->passes, expected[run][2]) << run;
    EXPECT_EQ(r->last(), expected[run][1] + 1 == expected[run][2]) << run;
  }
  EXPECT_FALSE(plan.run(5));
  EXPECT_FALSE(plan.run(-1));
}

TEST(PassPlan, RemovesTheCountersCarriedBetweenRunsAndNothingElse) {
  const auto folder = std::filesystem::temp_directory_path() / "labbook-carried-test";
  std::filesystem::remove_all(folder);
  std::filesystem::create_directories(folder);
  const std::string plan = (folder / "pass-plan.txt").string();
  const std::string carried = carried_counters_prefix(plan) + "0.0.0";
  for (const std::string& path : {plan, carried, carried_counters_prefix(plan) + "1.0.3", (folder / "metrics-run-1.json").string()})
    std::ofstream(path) << "x";
  remove_carried_counters(plan);
  EXPECT_FALSE(std::filesystem::exists(carried));
  EXPECT_FALSE(std::filesystem::exists(carried_counters_prefix(plan) + "1.0.3"));
  EXPECT_TRUE(std::filesystem::exists(plan)) << "the plan is the CLI's to remove";
  EXPECT_TRUE(std::filesystem::exists(folder / "metrics-run-1.json"));
  std::filesystem::remove_all(folder);
}

TEST(PassPlan, AllMetricsInOneBatchOnlyWhereEveryLaunchFitsTheFirst) {
  EXPECT_EQ(carrying_for(true, 88, std::nullopt), Carrying::AllInOneBatch);
  EXPECT_EQ(carrying_for(true, kOneGroupLaunches, std::nullopt), Carrying::AllInOneBatch);
  EXPECT_EQ(carrying_for(true, kOneGroupLaunches + 1, std::nullopt), Carrying::MultiPassMetricsOnly);
  EXPECT_EQ(carrying_for(false, 88, std::nullopt), Carrying::MultiPassMetricsOnly) << "something may stop the batch";
  EXPECT_EQ(carrying_for(true, std::nullopt, std::nullopt), Carrying::MultiPassMetricsOnly) << "launches not counted";
  EXPECT_EQ(carrying_for(true, 88, 16), Carrying::MultiPassMetricsOnly) << "an image of 16 ranges holds fewer";
  EXPECT_EQ(carrying_for(true, 16, 16), Carrying::AllInOneBatch);
}

TEST(PassPlan, KeptPlansAreFoundByChipCuptiMetricsAndCarrying) {
  const char* old_xdg = std::getenv("XDG_CACHE_HOME");
  const std::string saved_xdg = old_xdg ? old_xdg : "";
  setenv("XDG_CACHE_HOME", "/cache", 1);
  EXPECT_EQ(cache_folder(kPlanCacheKind), "/cache/labbook/pass-plans");
  unsetenv("XDG_CACHE_HOME");
  const char* old_home = std::getenv("HOME");
  const std::string saved_home = old_home ? old_home : "";
  setenv("HOME", "/home/student", 1);
  EXPECT_EQ(cache_folder(kPlanCacheKind), "/home/student/.cache/labbook/pass-plans");
  unsetenv("HOME");
  EXPECT_EQ(cache_folder(kPlanCacheKind), "") << "no home to cache in";
  if (old_home) setenv("HOME", saved_home.c_str(), 1);
  if (old_xdg) setenv("XDG_CACHE_HOME", saved_xdg.c_str(), 1);

  const std::vector<std::string> metrics = {"dram__bytes_read.sum", "lts__t_sector_hit_rate.pct"};
  const auto file = [&](const std::string& chip, int cupti, const std::vector<std::string>& m, Carrying c) {
    return plan_cache_file("/plans", chip, cupti, m, c);
  };
  const std::string one = file("GH100", 130001, metrics, Carrying::MultiPassMetricsOnly);
  EXPECT_EQ(one, file("GH100", 130001, metrics, Carrying::MultiPassMetricsOnly)) << "the same each time";
  EXPECT_EQ(one.rfind("/plans/GH100-cupti130001-", 0), 0u) << one;
  for (const std::string& other :
       {file("GB100", 130001, metrics, Carrying::MultiPassMetricsOnly), file("GH100", 130002, metrics, Carrying::MultiPassMetricsOnly),
        file("GH100", 130001, {"dram__bytes_read.sum"}, Carrying::MultiPassMetricsOnly),
        file("GH100", 130001, metrics, Carrying::AllInOneBatch)})
    EXPECT_NE(one, other);
}
