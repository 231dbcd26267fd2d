#include <gtest/gtest.h>

#include "labbook/model/text.h"

TEST(Text, JoinAndSplitAreInverseForNonEmptyItems) {
  EXPECT_EQ(labbook::join({"a", "b", "c"}, ", "), "a, b, c");
  EXPECT_EQ(labbook::join({}, ","), "");
  EXPECT_EQ(labbook::split("a,,b,", ','), (std::vector<std::string>{"a", "b"}));
  EXPECT_TRUE(labbook::split("", ',').empty());
  EXPECT_EQ(labbook::split(labbook::join({"x", "y"}, ","), ','), (std::vector<std::string>{"x", "y"}));
}

TEST(Text, DemanglesKernelNamesTheRdcStaticPrefixIncluded) {
  EXPECT_EQ(labbook::demangled("_Z3addPfi"), "add(float*, int)");
  EXPECT_EQ(labbook::demangled("_Z3addPfi"), "add(float*, int)") << "the second time from the memo";
  EXPECT_EQ(labbook::demangled("vectorAdd"), "vectorAdd") << "not mangled: itself";
  // A kernel in an anonymous namespace, built with nvcc -rdc=true (the H100, 2026-11-27).
  EXPECT_EQ(labbook::demangled("__nv_static_35__7049e007_13_submission_cu_01a5cfdd__ZN46_GLOBAL__N__7049e007_13_"
                               "submission_cu_01a5cfdd18all_rounds_at_onceEPKjPjm"),
            "(anonymous namespace)::all_rounds_at_once(unsigned int const*, unsigned int*, unsigned long)");
  EXPECT_EQ(labbook::demangled("__nv_static_99__short"), "__nv_static_99__short") << "malformed: itself";
}
