// The join at the end of a run (launch_join.h) on made-up launches and kernel records: each
// record takes its launch by correlation id and name in the order the GPU started them, a
// graph's nodes one by one, and only selected launches keep their metrics.
#include <gtest/gtest.h>

#include <optional>
#include <tuple>

#include "launch_join.h"

using namespace labbook;
using namespace labbook::profiler;

namespace {
const std::string kA = "_Z1av", kB = "_Z1bv";

Launch launch(std::uint64_t index, const std::string& name, std::uint32_t runtime, std::uint32_t driver, bool selected,
              std::size_t range = 0) {
  return Launch{index, &name, range, 7, 0, runtime, driver, DefaultStream::Legacy, selected, false};
}

KernelRecord record(const std::string& name, std::uint32_t correlation, std::uint64_t start) {
  KernelRecord r;
  r.mangled = &name;
  r.correlation = correlation;
  r.start_ns = start;
  r.end_ns = start + 10;
  return r;
}

std::string path_of(std::size_t range) { return range ? "r" + std::to_string(range) : ""; }

/// Every kernel of `joined`, each made into the same kernel in turn, as the writer makes them.
std::vector<Kernel> made(const JoinedKernels& joined) {
  std::vector<Kernel> kernels;
  Kernel into;
  for (std::size_t i = 0; i < joined.size(); ++i) {
    joined.make(i, into);
    kernels.push_back(into);
  }
  return kernels;
}
}  // namespace

TEST(LaunchJoin, RecordsTakeTheirLaunchesByCallAndNameInStartOrder) {
  // Launch 3 and 4 are one graph launch's two nodes (one correlation id); launch 1 is not selected.
  const std::vector<Launch> launches = {launch(0, kA, 10, 100, true, 1), launch(1, kB, 11, 101, false),
                                        launch(2, kA, 0, 102, true, 2), launch(3, kA, 13, 103, true),
                                        launch(4, kA, 13, 103, true)};
  const LaunchMetrics metrics = {{0, {{"m", 1}}}, {1, {{"m", 2}}}, {2, {{"m", 3}}}, {4, {{"m", 5}}}};
  std::vector<KernelRecord> records = {record(kA, 13, 500), record(kA, 102, 300), record(kA, 10, 100),
                                       record(kB, 11, 200), record(kA, 99, 50),   record(kA, 13, 400)};
  const JoinedKernels joined(records, launches, metrics, path_of);
  const std::vector<Kernel> kernels = made(joined);
  ASSERT_EQ(kernels.size(), 6u);
  for (std::size_t i = 0; i < 5; ++i) EXPECT_EQ(kernels[i].launch, i) << "sorted by launch";
  EXPECT_EQ(kernels[0].start_ns, 100u);
  EXPECT_EQ(kernels[0].range, "r1");
  EXPECT_EQ(kernels[0].name, "a()");
  EXPECT_EQ(kernels[0].metrics.at("m"), 1);
  EXPECT_TRUE(kernels[1].metrics.empty()) << "a launch the filter left out has no metrics";
  EXPECT_EQ(kernels[2].start_ns, 300u) << "matched through the driver's correlation id";
  EXPECT_EQ(kernels[2].range, "r2");
  EXPECT_EQ(kernels[3].start_ns, 400u) << "a graph's nodes taken in the order they started";
  EXPECT_EQ(kernels[4].start_ns, 500u);
  EXPECT_EQ(kernels[4].metrics.at("m"), 5);
  EXPECT_EQ(kernels[5].launch, 5u) << "unclaimed: numbered after every launch";
  EXPECT_EQ(kernels[5].range, "") << "nothing of the row made before it";
  EXPECT_TRUE(kernels[5].metrics.empty());
  ASSERT_EQ(joined.unmatched().size(), 1u);
  EXPECT_EQ(joined.unmatched()[0], "kernel a() has no launch record (correlation 99)");
  const MadeRows<Kernel> rows = joined.rows();
  EXPECT_EQ(rows.count, 6u);
  EXPECT_EQ(rows.earliest_ns, 50u) << "the unclaimed record started first";
}

TEST(LaunchJoin, AKernelCarriesItsRuntimeCallsIdWhicheverIdItsRecordHeld) {
  const std::vector<Launch> launches = {launch(0, kA, 10, 100, false), launch(1, kA, 11, 101, false),
                                        launch(2, kB, 0, 102, false)};
  const std::vector<KernelRecord> records = {record(kA, 100, 1), record(kA, 11, 2), record(kB, 102, 3)};
  const JoinedKernels joined(records, launches, {}, path_of);
  const std::vector<Kernel> kernels = made(joined);
  ASSERT_EQ(kernels.size(), 3u);
  EXPECT_EQ(kernels[0].correlation, 10u) << "the record held the driver call's id";
  EXPECT_EQ(kernels[1].correlation, 11u);
  EXPECT_EQ(kernels[2].correlation, 102u) << "launched through the driver alone";
  EXPECT_TRUE(joined.unmatched().empty());
}

TEST(LaunchJoin, WithoutTheTraceEachLaunchIsAKernel) {
  const std::vector<Launch> launches = {launch(0, kA, 10, 100, true, 3), launch(1, kB, 0, 101, false)};
  const std::vector<Kernel> kernels = kernels_from_launches(launches, {{0, {{"m", 1}}}, {1, {{"m", 2}}}}, path_of);
  ASSERT_EQ(kernels.size(), 2u);
  EXPECT_EQ(kernels[0].name, "a()");
  EXPECT_EQ(kernels[0].mangled, kA);
  EXPECT_EQ(kernels[0].correlation, 10u) << "the runtime call's id where there was one";
  EXPECT_EQ(kernels[1].correlation, 101u);
  EXPECT_EQ(kernels[0].range, "r3");
  EXPECT_EQ(kernels[0].thread, 7u);
  EXPECT_EQ(kernels[0].default_stream, DefaultStream::Legacy);
  EXPECT_EQ(kernels[0].metrics.at("m"), 1);
  EXPECT_TRUE(kernels[1].metrics.empty());
}

// A metrics run after a trace run: only the chosen launches become kernels, each numbered
// among its path's launches of its kernel (two ranges of one path count together), and every
// launch is tallied.
TEST(LaunchJoin, AfterATraceRunOnlyTheChosenLaunchesAreKernelsAndEveryLaunchIsTallied) {
  const std::vector<Launch> launches = {launch(0, kA, 10, 100, false, 1), launch(1, kB, 11, 101, false, 1),
                                        launch(2, kA, 12, 102, false, 2), launch(3, kA, 13, 103, true, 3),
                                        launch(4, kA, 14, 104, true, 0)};
  const auto same_path = [](std::size_t range) { return range == 0 ? std::string() : range == 2 ? "r2" : "loop"; };
  std::vector<Launch> many = launches;   // ten launches more of kernel b in range 1, none chosen
  for (std::uint32_t i = 5; i < 15; ++i) many.push_back(launch(i, kB, 20 + i, 200 + i, false, 1));
  const std::optional<ProfiledKernels> chosen =
      profiled_kernels_from_launches(many, {{3, {{"m", 3}}}, {4, {{"m", 4}}}}, same_path);
  ASSERT_TRUE(chosen.has_value());
  const ProfiledKernels& profiled = *chosen;
  ASSERT_EQ(profiled.kernels.size(), 2u);
  EXPECT_EQ(profiled.kernels[0].launch, 3u);
  EXPECT_EQ(profiled.kernels[0].range, "loop");
  EXPECT_EQ(profiled.kernels[0].ordinal, std::optional<std::uint64_t>(1)) << "range 1's launch of a came first";
  EXPECT_EQ(profiled.kernels[0].metrics.at("m"), 3);
  EXPECT_EQ(profiled.kernels[1].ordinal, std::optional<std::uint64_t>(0));
  std::vector<std::tuple<std::string, std::string, std::uint64_t>> tally;
  for (const auto& t : profiled.tally) tally.emplace_back(t.range, t.mangled, t.launches);
  const decltype(tally) expected = {{"", kA, 1}, {"loop", kA, 2}, {"loop", kB, 11}, {"r2", kA, 1}};
  EXPECT_EQ(tally, expected) << "one entry each, by path and kernel: the same file from the same run";

  // Without the ten, the two kernels and four entries are as many records as the five launches.
  EXPECT_FALSE(profiled_kernels_from_launches(launches, {}, same_path).has_value());
}

TEST(LaunchJoin, CopiesTakeTheRangeOfTheCallThatMadeThem) {
  std::vector<Copy> copies(2);
  copies[0].correlation = 5;
  copies[1].correlation = 6;
  name_copy_ranges(copies, {{5, 4}}, path_of);
  EXPECT_EQ(copies[0].range, "r4");
  EXPECT_EQ(copies[1].range, "");
}
