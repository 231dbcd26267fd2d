#include <gtest/gtest.h>

#include "nvtx_tracker.h"

using labbook::profiler::NvtxTracker;

TEST(NvtxTracker, NestedPushPopGivesPathsPerThread) {
  NvtxTracker t;
  t.push(1, "readSegment", 10);
  t.push(1, "offset=11", 20);
  t.push(2, "other", 25);
  EXPECT_EQ(t.path_of(t.current_range(1)), "readSegment/offset=11");
  EXPECT_EQ(t.path_of(t.current_range(2)), "other");
  EXPECT_TRUE(t.pop(1, 30));
  EXPECT_EQ(t.path_of(t.current_range(1)), "readSegment");
  EXPECT_TRUE(t.pop(1, 40));
  EXPECT_EQ(t.path_of(t.current_range(1)), "");
  EXPECT_FALSE(t.pop(1, 50)) << "a pop with nothing open is ignored";
  const auto ranges = t.ranges();
  ASSERT_EQ(ranges.size(), 3u);
  EXPECT_EQ(ranges[1].path, "readSegment/offset=11");
  EXPECT_EQ(ranges[1].depth, 1);
  EXPECT_EQ(*ranges[1].end_ns, 30u);
  EXPECT_EQ(*ranges[0].end_ns, 40u);
  EXPECT_FALSE(ranges[2].end_ns.has_value()) << "thread 2 never popped";
}

TEST(NvtxTracker, KeepsTheNumberARangeCarries) {
  NvtxTracker t;
  t.push(1, "pitch/width=1001", 10, 4096.0);
  t.start(5, 1, "resolution", 12, 512.5);
  t.push(1, "plain", 15);
  const auto ranges = t.ranges();
  EXPECT_EQ(ranges.at(0).payload, 4096.0);
  EXPECT_EQ(ranges.at(1).payload, 512.5);
  EXPECT_FALSE(ranges.at(2).payload.has_value());
}

TEST(NvtxTracker, StartEndRangesMayEndElsewhereAndDoNotNest) {
  NvtxTracker t;
  t.start(77, 1, "io", 5);
  EXPECT_EQ(t.path_of(t.current_range(1)), "");
  EXPECT_TRUE(t.end(77, 9));
  EXPECT_FALSE(t.end(77, 10));
  EXPECT_EQ(*t.ranges().at(0).end_ns, 9u);
}

TEST(NvtxTracker, TheCurrentRangeIdNamesTheSamePathAsTheRangeItself) {
  NvtxTracker t;
  EXPECT_EQ(t.current_range(1), 0u);
  EXPECT_EQ(t.path_of(0), "");
  t.push(1, "outer", 1);
  t.start(9, 1, "process-wide", 2);   // not a push: never the current range
  t.push(2, "other thread", 3);
  t.push(1, "inner", 4);
  const std::size_t inner = t.current_range(1);
  EXPECT_EQ(t.path_of(inner), "outer/inner");
  EXPECT_EQ(t.path_of(inner), t.path_of(t.current_range(1)));
  EXPECT_EQ(t.ranges().at(inner - 1).id, inner);
  EXPECT_EQ(t.path_of(t.current_range(2)), "other thread");
  t.pop(1, 5);
  EXPECT_EQ(t.path_of(t.current_range(1)), "outer");
  EXPECT_EQ(t.path_of(inner), "outer/inner") << "a closed range keeps its path";
  EXPECT_EQ(t.path_of(99), "");
}
