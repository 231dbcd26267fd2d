// LaunchMatcher: kernel records find their launches through the calls' correlation ids.
#include <gtest/gtest.h>

#include <string>

#include "launch_matcher.h"

namespace {

using labbook::profiler::LaunchMatcher;

const std::string kScaleKernel = "_Z5scalePfi", kAddKernel = "_Z3addPfS_i";

TEST(LaunchMatcher, ARecordClaimsTheLaunchOfItsCallByEitherCorrelationId) {
  LaunchMatcher m;
  m.add(10, 0, &kScaleKernel);   // runtime call 10, driver call 11: one launch
  m.add(11, 0, &kScaleKernel);
  m.add(12, 1, &kAddKernel);     // a driver call without a runtime call
  m.seal();
  EXPECT_EQ(m.claim(12, kAddKernel), 1u);
  EXPECT_EQ(m.claim(11, kScaleKernel), 0u);
  EXPECT_FALSE(m.claim(10, kScaleKernel)) << "launch 0 was claimed through its other id";
  EXPECT_FALSE(m.claim(99, kScaleKernel)) << "no call 99";
}

TEST(LaunchMatcher, AGraphLaunchsKernelsAreClaimedByNameThenInLaunchOrder) {
  LaunchMatcher m;
  // One graph launch (correlation 7) of three kernel nodes, added out of order.
  m.add(7, 4, &kAddKernel);
  m.add(7, 2, &kScaleKernel);
  m.add(7, 3, &kScaleKernel);
  m.add(5, 1, &kScaleKernel);
  m.seal();
  EXPECT_EQ(m.claim(7, kAddKernel), 4u) << "the launch with its name, though not the first";
  EXPECT_EQ(m.claim(7, kScaleKernel), 2u);
  EXPECT_EQ(m.claim(7, "_Z5otherv"), 3u) << "no launch of that name left: the first unclaimed";
  EXPECT_FALSE(m.claim(7, kScaleKernel));
  EXPECT_EQ(m.claim(5, kAddKernel), 1u);
}

}  // namespace

TEST(LaunchMatcher, RecordsClaimInTheOrderTheGpuStartedThemTiesAsCuptiGaveThem) {
  std::vector<labbook::profiler::KernelRecord> records(5);
  const std::uint64_t starts[] = {30, 10, 20, 10, 0};
  for (std::size_t i = 0; i < records.size(); ++i) records[i].start_ns = starts[i];
  EXPECT_EQ(labbook::profiler::start_order(records), (std::vector<std::size_t>{4, 1, 3, 2, 0}));
  EXPECT_TRUE(labbook::profiler::start_order({}).empty());
}
