#include <gtest/gtest.h>
TEST(Lab4Sheet, Placeholder) {}
