// The labs' random inputs: in range, seedable, and every small integer reachable.
#include <gtest/gtest.h>

#include <set>

#include "random_data.h"

using namespace labbook::lab;

TEST(RandomData, FloatsAreInMinusOneToOneAndRepeatForASeed) {
  RandomFloats a(7), b(7), c(8);
  bool differs = false;
  for (int i = 0; i < 10000; ++i) {
    const float x = a.next();
    EXPECT_GE(x, -1.0f);
    EXPECT_LT(x, 1.0f);
    EXPECT_EQ(x, b.next()) << "the same seed gives the same inputs";
    differs = differs || x != c.next();
  }
  EXPECT_TRUE(differs) << "another seed gives other inputs";
}

TEST(RandomData, SmallIntegersCoverMinusFourToFour) {
  SmallIntegers r(3);
  std::set<int> seen;
  for (int i = 0; i < 10000; ++i) {
    const int v = r.next();
    ASSERT_GE(v, -4);
    ASSERT_LE(v, 4);
    seen.insert(v);
  }
  EXPECT_EQ(seen.size(), 9u);
}

TEST(RandomData, WordsUseTheHighBitsAndDifferBySeed) {
  RandomWords a(1), b(2);
  std::uint32_t any_high = 0;
  int same = 0;
  for (int i = 0; i < 1000; ++i) {
    const std::uint32_t x = a.next();
    any_high |= x & 0x80000000u;
    same += x == b.next();
  }
  EXPECT_NE(any_high, 0u);
  EXPECT_LT(same, 5);
}
