#include <gtest/gtest.h>

#include "graph_order.h"

using labbook::profiler::topological_order;
using Order = std::vector<std::size_t>;

TEST(GraphOrder, ACreationOrderThatIsAlreadyTopologicalComesBackUnchanged) {
  // graph_explicit's shape: a memset, two branches (one of two kernels), a join.
  EXPECT_EQ(topological_order(5, {{0, 1}, {0, 2}, {2, 3}, {1, 4}, {3, 4}}), (Order{0, 1, 2, 3, 4}));
  EXPECT_EQ(topological_order(3, {}), (Order{0, 1, 2}));
  EXPECT_EQ(topological_order(0, {}), Order{});
}

TEST(GraphOrder, AnEdgeAddedLaterPutsTheDependencyFirst) {
  // cuGraphAddDependencies can make a node depend on one created after it.
  EXPECT_EQ(topological_order(3, {{2, 0}}), (Order{1, 2, 0}));
  EXPECT_EQ(topological_order(4, {{3, 1}, {1, 0}}), (Order{2, 3, 1, 0}));
}

TEST(GraphOrder, AmongReadyNodesTheOneCreatedFirstGoesFirst) {
  // After 0, both 3 and 1 are ready: 1 was created first.
  EXPECT_EQ(topological_order(4, {{0, 3}, {0, 1}, {2, 3}}), (Order{0, 1, 2, 3}));
}

TEST(GraphOrder, BadEdgesAndCyclesLoseNoNode) {
  EXPECT_EQ(topological_order(2, {{0, 7}, {9, 1}}), (Order{0, 1}));
  EXPECT_EQ(topological_order(3, {{1, 2}, {2, 1}}), (Order{0, 1, 2}));
}
