#include <gtest/gtest.h>

#include "launch_filter.h"

using labbook::profiler::LaunchFilter;
using labbook::profiler::LaunchFilterSpec;
using labbook::profiler::glob_literal;
using labbook::profiler::glob_problem;

TEST(LaunchFilter, EmptySpecSelectsEveryLaunch) {
  LaunchFilterSpec spec;
  LaunchFilter f(spec);
  EXPECT_TRUE(f.select("", "k(int)"));
  EXPECT_TRUE(f.select("a/b", "k(int)"));
  EXPECT_EQ(spec.describe(), "");
}

TEST(LaunchFilter, NvtxGlobMatchesThePathOrAnEnclosingRange) {
  LaunchFilterSpec spec;
  spec.nvtx = {"transpose/*"};
  LaunchFilter f(spec);
  EXPECT_TRUE(f.select("transpose/naive", "k()"));
  EXPECT_TRUE(f.select("transpose/shared/iteration 3", "k()")) << "'*' crosses '/'";
  EXPECT_FALSE(f.select("transpose", "k()")) << "the range itself has no child part";
  EXPECT_FALSE(f.select("copy/transpose/naive", "k()"));
  LaunchFilterSpec whole;
  whole.nvtx = {"transpose"};
  LaunchFilter g(whole);
  EXPECT_TRUE(g.select("transpose/naive", "k()")) << "an enclosing range selects its children";
  EXPECT_FALSE(g.select("transposed", "k()"));
}

TEST(LaunchFilter, LaunchesOutsideNvtxAreMatchedByKernelName) {
  LaunchFilterSpec spec;
  spec.nvtx = {"transpose*"};
  LaunchFilter f(spec);
  EXPECT_TRUE(f.select("", "void transposeShared<1>(float*, float const*, int)"));
  EXPECT_FALSE(f.select("", "copy(float*, float const*, int)"));
}

TEST(LaunchFilter, KernelGlobOnShortOrFullName) {
  LaunchFilterSpec spec;
  spec.kernels = {"readSegment", "*Unroll<4u>*"};
  LaunchFilter f(spec);
  EXPECT_TRUE(f.select("x", "readSegment(float const*, float*)"));
  EXPECT_FALSE(f.select("x", "readSegmentUncached(float const*, float*)"));
  EXPECT_TRUE(f.select("x", "void readSegmentUnroll<4u>(float const*)"));
  EXPECT_FALSE(f.select("x", "void readSegmentUnroll<2u>(float const*)"));
}

TEST(LaunchFilter, KernelGlobMatchesANameWithoutItsNamespaces) {
  LaunchFilterSpec spec;
  spec.kernels = {"readSegment", "tileColumnRead*"};
  LaunchFilter f(spec);
  EXPECT_TRUE(f.select("x", "labbook::kernels::readSegment(float const*, float*)"));
  EXPECT_FALSE(f.select("x", "labbook::kernels::readSegmentUncached(float const*, float*)"));
  EXPECT_TRUE(f.select("x", "void labbook::kernels::tileColumnRead<32u>(float const*, float*, unsigned int)"));
  EXPECT_FALSE(f.select("x", "void std::copy<labbook::kernels::readSegment>(int)"));
}

TEST(LaunchFilter, SkipAndCountApplyToMatchingLaunchesOnly) {
  LaunchFilterSpec spec;
  spec.kernels = {"scale"};
  spec.skip = 1;
  spec.count = 2;
  LaunchFilter f(spec);
  std::vector<bool> picked;
  for (const char* k : {"scale(float*)", "other()", "scale(float*)", "other()", "scale(float*)", "scale(float*)"})
    picked.push_back(f.select("", k));
  EXPECT_EQ(picked, (std::vector<bool>{false, false, true, false, true, false}));
  EXPECT_TRUE(f.exhausted());
  EXPECT_EQ(spec.describe(), "kernels 'scale'; matching launches from #2, 2 of them");
}

TEST(LaunchFilter, BadGlobsAreNamedBeforeAnythingRuns) {
  using labbook::profiler::glob_problem;
  EXPECT_EQ(glob_problem("transpose/*"), "");
  EXPECT_EQ(glob_problem("k[0-9]*"), "");
  EXPECT_EQ(glob_problem("k[]]"), "") << "']' first in a class is a member";
  EXPECT_EQ(glob_problem("k\\[x"), "") << "an escaped '[' opens nothing";
  EXPECT_NE(glob_problem("k[0-9"), "");
  EXPECT_NE(glob_problem("testKernel<unsigned char>[*"), "");
  EXPECT_NE(glob_problem(""), "");
}

TEST(LaunchFilter, ALiteralGlobMatchesItsTextAlone) {
  // A lab's experiment names as NVTX globs (the source runs of a lab's memory charts).
  for (const std::string name : {"tile/unpadded", "stride/s=1", "a*b?[c]\\d", "student/m=1024,k=2048,n=512"}) {
    LaunchFilterSpec spec;
    spec.nvtx = {glob_literal(name)};
    LaunchFilter f(spec);
    EXPECT_TRUE(f.select(name, "k()")) << name;
    EXPECT_TRUE(f.select(name + "/inner", "k()")) << "ranges inside it too";
    EXPECT_FALSE(f.select(name + "x", "k()")) << name;
    EXPECT_EQ(glob_problem(glob_literal(name)), "");
  }
  LaunchFilterSpec literal_star;
  literal_star.nvtx = {glob_literal("a*")};
  LaunchFilter star(literal_star);
  EXPECT_FALSE(star.select("ab", "k()")) << "'*' is a character here";
}
