// What each version of the measurement file added, read back by both readers, and files of
// earlier versions read without it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <optional>

#include <nlohmann/json.hpp>

#include "labbook/model/measurement_json.h"
#include "measurement_samples.h"

using namespace labbook;
using namespace measurement_samples;

TEST(MeasurementJson, ReadsVersion1FilesWithoutTheFieldsVersion2Added) {
  auto j = to_json(sample());
  j["schema_version"] = 1;
  j["program"].erase("stop_reason");
  j.erase("memory_events");
  j.erase("metric_scope");
  j.erase("metric_passes");
  for (auto& r : j["ranges"]) r.erase("process_wide");
  const Measurement m = measurement_from_json(j, "old.json");
  EXPECT_EQ(m.program.stop_reason, "");
  EXPECT_TRUE(m.memory_events.empty());
  EXPECT_EQ(m.metric_passes, 0);
  EXPECT_EQ(m.kernels.size(), 1u);
  // The same file claiming version 2 lacks required fields.
  j["schema_version"] = 2;
  expect_rejected(j, "/program/stop_reason: missing");
}

TEST(MeasurementJson, Version3RecordsReplayAndCacheControl) {
  auto j = to_json(sample());
  EXPECT_EQ(measurement_from_json(j, "new.json").cache_control, "all");
  EXPECT_EQ(measurement_from_json(j, "new.json").metric_replay, "application");
  j.erase("cache_control");
  expect_rejected(j, "/cache_control: missing");
  j["schema_version"] = 2;   // version 2 files had neither: kernel replay, no cache control
  j.erase("metric_replay");
  const Measurement m = measurement_from_json(j, "v2.json");
  EXPECT_EQ(m.cache_control, "");
  EXPECT_EQ(m.metric_replay, "");
}

TEST(MeasurementJson, Version4CarriesAKernelsSassInstructions) {
  Measurement m = sample();
  m.kernels[0].sass = {{"_Z11readSegmentPKfS0_Pfjj", 0x1a0, "/src/lab4.cu", 42,
                        {{"smsp__sass_inst_executed", 1048576}, {"smsp__sass_sectors_mem_global", 5242880}}},
                       {"_Z11readSegmentPKfS0_Pfjj", 0x1b0, "", 0, {{"smsp__sass_inst_executed", 1048576}}}};
  const Measurement back = measurement_from_json(nlohmann::json::parse(measurement_text(m)), "v4.json");
  ASSERT_EQ(back.kernels[0].sass.size(), 2u);
  EXPECT_EQ(back.kernels[0].sass[0].pc_offset, 0x1a0u);
  EXPECT_EQ(back.kernels[0].sass[0].file, "/src/lab4.cu");
  EXPECT_EQ(back.kernels[0].sass[0].line, 42);
  EXPECT_EQ(back.kernels[0].sass[0].metrics.at("smsp__sass_sectors_mem_global"), 5242880);
  EXPECT_EQ(back.kernels[0].sass[1].line, 0) << "no line information";

  EXPECT_EQ(back.kernels[0].sass_launches, 1u) << "a launch's own counts unless said otherwise";

  auto j = to_json(m);
  EXPECT_FALSE(j["kernels"][0].contains("sass_launches")) << "written only for sums over several launches";
  m.kernels[0].sass_launches = 3;
  EXPECT_EQ(measurement_from_json(to_json(m), "sums.json").kernels[0].sass_launches, 3u);
  j["kernels"][0]["sass_launches"] = 0;
  expect_rejected(j, "/kernels/0/sass_launches: expected 1 or more launches");
  j["kernels"][0].erase("sass_launches");
  EXPECT_FALSE(to_json(sample())["kernels"][0].contains("sass")) << "written only for kernels the source pass saw";
  j["kernels"][0]["sass"][0]["line"] = -1;
  expect_rejected(j, "/kernels/0/sass/0/line: expected 0 (unknown) or a line number");
  // A version 3 file has no sass: its kernels read with none, whatever the file holds.
  j["schema_version"] = 3;
  EXPECT_TRUE(measurement_from_json(j, "v3.json").kernels[0].sass.empty());
}

// A metrics run after a trace run carries its profiled kernels alone, each with its ordinal,
// and the tally of every launch: both readers give them back, and a run that carries every
// launch writes neither (no column of nulls in 10^5 rows).
TEST(MeasurementJson, Version6CarriesATallyAndTheProfiledKernelsOrdinals) {
  Measurement m = sample();
  m.kernels.at(0).ordinal = 41;
  m.launch_tally = std::vector<LaunchTally>{{"outer/inner", "_Z1kv", 100000}, {"", "_Z1jv", 3},
                                            {m.kernels.at(0).range, m.kernels.at(0).mangled, 50}};
  const auto path = (std::filesystem::temp_directory_path() / "labbook-tally.json").string();
  write_measurement(m, path);
  std::size_t fast = 0;
  const Measurement back = read_measurement(path, &fast);
  EXPECT_GT(fast, 0u) << "the tables' reader took it";
  EXPECT_EQ(back.kernels.at(0).ordinal, std::optional<std::uint64_t>(41));
  ASSERT_TRUE(back.launch_tally.has_value());
  ASSERT_EQ(back.launch_tally->size(), 3u);
  EXPECT_EQ(back.launch_tally->at(0).range, "outer/inner");
  EXPECT_EQ(back.launch_tally->at(0).mangled, "_Z1kv");
  EXPECT_EQ(back.launch_tally->at(0).launches, 100000u);
  EXPECT_EQ(to_json(back), to_json(m));
  EXPECT_EQ(to_json(measurement_from_json(to_json(m), "mem")), to_json(m)) << "records as lists of objects";

  // A kernel not numbered within the tally would be merged as another launch: refused.
  auto unnumbered = to_json(m);
  unnumbered["kernels"][0].erase("ordinal");
  expect_rejected(unnumbered, "/kernels/0/ordinal: missing, where the file has a launch_tally");
  auto beyond = to_json(m);
  beyond["launch_tally"][2]["launches"] = 41;   // launches 0 to 40: none is the 42nd
  expect_rejected(beyond, "/kernels/0/ordinal: beyond the launch_tally's launches of its kernel in its range");

  const auto every_launch = nlohmann::json::parse(measurement_text(sample()));
  const auto& columns = every_launch["kernels"]["columns"];
  EXPECT_EQ(std::find(columns.begin(), columns.end(), "ordinal"), columns.end());
  EXPECT_FALSE(every_launch.contains("launch_tally"));
  EXPECT_FALSE(measurement_from_json(every_launch, "mem").launch_tally.has_value());
  std::remove(path.c_str());
}
