#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "pass_plan.h"

using namespace labbook::profiler;

TEST(PassPlan, RoundTripsThroughItsFileAndCoversExactlyItsMetrics) {
  const auto path = (std::filesystem::temp_directory_path() / "labbook-pass-plan-test.txt").string();
  std::remove(path.c_str());
  EXPECT_TRUE(read_plan(path).groups.empty()) << "no file, no plan";
  PassPlan plan;
  plan.groups = {{"dram__bytes_read.sum", "gpu__time_duration.sum"}, {"lts__t_sector_hit_rate.pct"}};
  write_plan(path, plan);
  const PassPlan back = read_plan(path);
  EXPECT_EQ(back.groups, plan.groups);
  EXPECT_TRUE(plan_covers(back, {"lts__t_sector_hit_rate.pct", "dram__bytes_read.sum", "gpu__time_duration.sum"}));
  EXPECT_FALSE(plan_covers(back, {"dram__bytes_read.sum", "gpu__time_duration.sum"})) << "one metric too many";
  EXPECT_FALSE(plan_covers(back, {"dram__bytes_read.sum", "gpu__time_duration.sum", "lts__t_sector_hit_rate.pct",
                                  "dram__bytes_write.sum"}))
      << "one metric missing";
  std::ofstream(path) << "dram__bytes_read.sum\ndram__bytes_read.sum\n";
  EXPECT_FALSE(plan_covers(read_plan(path), {"dram__bytes_read.sum"})) << "a damaged plan collects a metric twice";
  std::remove(path.c_str());
}
