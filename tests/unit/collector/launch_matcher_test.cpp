// LaunchMatcher: kernel records find their launches through the calls' correlation ids.
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <random>
#include <string>
#include <vector>

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


// Whatever the order records come in, each claims what a scan of every launch would give it
// (the search starts from where the last claim found its call).
TEST(LaunchMatcher, RecordsInAnyOrderClaimWhatAScanOfEveryLaunchGives) {
  struct Added {
    std::uint32_t correlation;
    std::uint64_t index;
    const std::string* mangled;
  };
  std::vector<Added> added;
  std::uint64_t index = 0;
  for (std::uint32_t call = 0; call < 600; ++call) {
    const std::uint32_t runtime = 3 * call + 10;
    const int kernels = call % 7 == 0 ? 3 : 1;   // a graph launch's nodes share its call
    for (int k = 0; k < kernels; ++k, ++index) {
      const std::string* name = (call + k) % 2 ? &kScaleKernel : &kAddKernel;
      if (call % 5) added.push_back({runtime, index, name});   // some through the driver alone
      added.push_back({runtime + 1, index, name});
    }
  }
  struct Claim {
    std::uint32_t correlation;
    const std::string* mangled;
  };
  std::vector<Claim> claims;
  for (const Added& a : added) claims.push_back({a.correlation, a.mangled});
  claims.push_back({5, &kAddKernel});        // before every call
  claims.push_back({99999, &kAddKernel});    // after every call
  std::mt19937 random(59);
  for (const char* order : {"ascending", "descending", "shuffled"}) {
    if (order[0] == 'd') std::reverse(claims.begin(), claims.end());
    if (order[0] == 's') std::shuffle(claims.begin(), claims.end(), random);
    LaunchMatcher m;
    m.reserve(added.size());
    for (const Added& a : added) m.add(a.correlation, a.index, a.mangled);
    m.seal();
    std::vector<bool> taken(index, false);
    for (const Claim& c : claims) {
      std::optional<std::uint64_t> first, named;   // of its call, not yet taken; `added` is in launch order
      for (const Added& a : added) {
        if (a.correlation != c.correlation || taken[a.index]) continue;
        if (!first) first = a.index;
        if (!named && *a.mangled == *c.mangled) named = a.index;
      }
      const std::optional<std::uint64_t> expected = named ? named : first;
      ASSERT_EQ(m.claim(c.correlation, *c.mangled), expected) << order << ", call " << c.correlation;
      if (expected) taken[*expected] = true;
    }
  }
}
}  // namespace

TEST(LaunchMatcher, RecordsClaimInTheOrderTheGpuStartedThemTiesAsCuptiGaveThem) {
  std::vector<labbook::profiler::KernelRecord> records(5);
  const std::uint64_t starts[] = {30, 10, 20, 10, 0};
  for (std::size_t i = 0; i < records.size(); ++i) records[i].start_ns = starts[i];
  EXPECT_EQ(labbook::profiler::start_order(records), (std::vector<std::size_t>{4, 1, 3, 2, 0}));
  EXPECT_TRUE(labbook::profiler::start_order({}).empty());
}
