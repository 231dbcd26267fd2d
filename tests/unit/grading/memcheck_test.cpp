// compute-sanitizer's memcheck output, as `labbook grade --memcheck` reads it.
#include "memcheck.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "labbook/model/error.h"

using labbook::grading::memcheck_command;
using labbook::grading::parse_memcheck_output;

namespace {

// Written in the sanitizer's format: two errors, each with its host backtrace, around the
// program's own output.
const char* kTwoErrors =
    "========= COMPUTE-SANITIZER\n"
    "first program line\n"
    "========= Invalid __global__ write of size 4 bytes\n"
    "=========     at add_points(const float *, const float *, float *, float *, unsigned int)+0x1b0\n"
    "=========     by thread (67,0,0) in block (3906,0,0)\n"
    "=========     Address 0x7f3a00f42400 is out of bounds\n"
    "=========     and is 1 bytes after the nearest allocation at 0x7f3a00000000 of size 4000012 bytes\n"
    "=========     Saved host backtrace up to driver entry point at kernel launch time\n"
    "=========         Host Frame: main [0x1234] in harness\n"
    "=========\n"
    "========= Invalid __global__ read of size 4 bytes\n"
    "=========     at add_points(const float *, const float *, float *, float *, unsigned int)+0x90\n"
    "=========     by thread (3,0,0) in block (3906,0,0)\n"
    "=========     Saved host backtrace up to driver entry point at kernel launch time\n"
    "=========         Host Frame: main [0x1234] in harness\n"
    "=========\n"
    "last program line\n"
    "========= ERROR SUMMARY: 2 errors\n";

}  // namespace

TEST(Memcheck, ReadsEachErrorWithWhereAndWhoButNoHostStack) {
  const auto r = parse_memcheck_output(kTwoErrors);
  EXPECT_TRUE(r.not_run.empty());
  EXPECT_EQ(r.errors, 2);
  ASSERT_EQ(r.accesses.size(), 2u);
  EXPECT_EQ(r.accesses[0].rfind("Invalid __global__ write of size 4 bytes\n  at add_points(", 0), 0u) << r.accesses[0];
  EXPECT_NE(r.accesses[0].find("\n  by thread (67,0,0) in block (3906,0,0)"), std::string::npos);
  EXPECT_NE(r.accesses[0].find("\n  Address 0x7f3a00f42400 is out of bounds"), std::string::npos);
  EXPECT_EQ(r.accesses[0].find("Host Frame"), std::string::npos);
  EXPECT_EQ(r.accesses[0].find("program line"), std::string::npos);
  EXPECT_EQ(r.accesses[1].rfind("Invalid __global__ read", 0), 0u);
}

TEST(Memcheck, ACleanRunHasNoErrors) {
  const auto r = parse_memcheck_output("========= COMPUTE-SANITIZER\nresult ok\n========= ERROR SUMMARY: 0 errors\n");
  EXPECT_EQ(r.errors, 0);
  EXPECT_TRUE(r.accesses.empty());
}

TEST(Memcheck, SaysHowManyErrorsWereNotPrinted) {
  std::string out = "========= COMPUTE-SANITIZER\n";
  for (int i = 0; i < 10; ++i) out += "========= Invalid __global__ write of size 4 bytes\n=========     at k()+0x10\n";
  out += "========= ERROR SUMMARY: 4096 errors\n";
  const auto r = parse_memcheck_output(out);
  EXPECT_EQ(r.errors, 4096);
  ASSERT_EQ(r.accesses.size(), 11u);
  EXPECT_EQ(r.accesses.back(), "... and 4086 more, not shown");
}

TEST(Memcheck, OutputWithoutASummaryIsAnError) {
  EXPECT_THROW(parse_memcheck_output("========= COMPUTE-SANITIZER\n========= Invalid __global__ write\n"), labbook::Error);
}

TEST(Memcheck, CommandRunsTheProgramUnderMemcheckWithItsArguments) {
  const auto c = memcheck_command("/cuda/bin/compute-sanitizer", {"/w/harness", "--seed", "7"});
  ASSERT_GE(c.size(), 4u);
  EXPECT_EQ(c.front(), "/cuda/bin/compute-sanitizer");
  EXPECT_EQ(std::vector<std::string>(c.end() - 3, c.end()), (std::vector<std::string>{"/w/harness", "--seed", "7"}));
  EXPECT_NE(std::find(c.begin(), c.end(), "memcheck"), c.end());
}
