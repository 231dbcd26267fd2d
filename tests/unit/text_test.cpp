#include <gtest/gtest.h>

#include "labbook/model/text.h"

TEST(Text, JoinAndSplitAreInverseForNonEmptyItems) {
  EXPECT_EQ(labbook::join({"a", "b", "c"}, ", "), "a, b, c");
  EXPECT_EQ(labbook::join({}, ","), "");
  EXPECT_EQ(labbook::split("a,,b,", ','), (std::vector<std::string>{"a", "b"}));
  EXPECT_TRUE(labbook::split("", ',').empty());
  EXPECT_EQ(labbook::split(labbook::join({"x", "y"}, ","), ','), (std::vector<std::string>{"x", "y"}));
}
