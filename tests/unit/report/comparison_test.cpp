// `labbook compare`: two measurements of one lab side by side. A run against itself differs
// nowhere; a run whose kernels took longer differs beyond the noise exactly there, and a claim
// that the change decides flips, with both reasons shown.
#include <gtest/gtest.h>

#include "comparison.h"
#include "lab_data.h"
#include "labbook/model/measurement_json.h"
#include "named_quantity.h"

using namespace labbook;
using namespace labbook::report;

namespace {
const std::string kComparedLab = std::string(LABBOOK_SOURCE_DIR) + "/labs/04_global_memory";

/// The recording with every kernel of `range` taking `factor` times as long.
Measurement slowed(Measurement m, const std::string& range, double factor) {
  for (auto& k : m.kernels)
    if (k.range == range && k.start_ns && k.end_ns)
      k.end_ns = *k.start_ns + static_cast<std::uint64_t>(static_cast<double>(*k.end_ns - *k.start_ns) * factor);
  return m;
}
}  // namespace

TEST(Difference, ValuesDifferWhenTheirRepeatsPartWays) {
  EXPECT_EQ(difference(named_quantity("gld_transactions"), {4.0, "", {4.0}}, {4.0, "", {4.0}}), Difference::kSame);
  EXPECT_EQ(difference(named_quantity("gld_transactions"), {4.0, "", {4.0}}, {5.0, "", {5.0}}), Difference::kBeyondNoise);
  EXPECT_EQ(difference(named_quantity("time"), {10.0, "", {9.0, 10.0, 11.0}}, {10.5, "", {10.0, 10.5, 12.0}}), Difference::kWithinNoise);
  EXPECT_EQ(difference(named_quantity("time"), {10.0, "", {9.0, 10.0, 11.0}}, {13.0, "", {12.0, 13.0, 14.0}}), Difference::kBeyondNoise);
  EXPECT_EQ(difference(named_quantity("time"), {10.0, "", {10.0}}, {13.0, "", {13.0}}), Difference::kNoiseUnknown);
  // DRAM bytes move from launch to launch: overlapping repeats are noise for a counter too.
  EXPECT_EQ(difference(named_quantity("dram_read_bytes"), {100.0, "", {90.0, 100.0, 110.0}}, {105.0, "", {95.0, 105.0, 115.0}}),
            Difference::kWithinNoise);
  EXPECT_EQ(difference(named_quantity("time"), {10.0, "", {10.0}}, {std::nullopt, "not measured", {}}), Difference::kMissing);
}

TEST(Comparison, ARunAgainstItselfDiffersNowhere) {
  const LabData lab = load_lab_data(kComparedLab + "/lab.toml");
  const Measurement m = read_measurement(kComparedLab + "/recorded/h100.json");
  const Comparison c = compare_runs(lab, {m, "a"}, {m, "b"});
  EXPECT_GT(c.values, 100);
  EXPECT_EQ(c.beyond_noise, 0);
  EXPECT_EQ(c.claims, static_cast<int>(lab.claims.size()));
  EXPECT_EQ(c.claims_changed, 0);
}

TEST(Comparison, SlowerKernelsDifferThereAndFlipTheClaimTheyDecide) {
  const LabData lab = load_lab_data(kComparedLab + "/lab.toml");
  const Measurement a = read_measurement(kComparedLab + "/recorded/h100.json");
  // unroll=1 at 2.5x its time: unrolling now gains ×2.9, and "up to three times faster" (≥ 2) holds.
  const Measurement b = slowed(a, "readSegmentUnroll/unroll=1", 2.5);
  const Comparison c = compare_runs(lab, {a, "a"}, {b, "b"});
  EXPECT_EQ(c.claims_changed, 1);
  int rows = 0;
  for (const auto& q : c.sheet.data["questions"])
    for (const auto& row : q["rows"]) {
      const bool slowed_row = row["experiment"] == "readSegmentUnroll/unroll=1" &&
                              (row["quantity"] == "time" || row["quantity"] == "effective_bandwidth");
      if (slowed_row) ++rows;
      EXPECT_EQ(row["difference"] == "beyond the noise", slowed_row) << row["experiment"] << " " << row["quantity"];
    }
  EXPECT_EQ(rows, c.beyond_noise);
  EXPECT_GT(rows, 0);
  for (const auto& claim : c.sheet.data["claims"])
    if (claim["changed"].get<bool>()) {
      EXPECT_NE(claim["claim"].get<std::string>().find("three times faster"), std::string::npos);
      EXPECT_EQ(claim["a"].get<std::string>().rfind("does not hold", 0), 0u);
      EXPECT_EQ(claim["b"].get<std::string>().rfind("holds", 0), 0u);
    }
}
