// What graph replay does with each kind of node: every kind it keeps from running is one it
// replays, and every kind that leaves a graph whole is named in the reason.
#include <gtest/gtest.h>

#include <string>

#include "graph_node_kinds.h"

namespace {

using namespace labbook::profiler;

const CUgraphNodeType kEveryKind[] = {
    CU_GRAPH_NODE_TYPE_KERNEL,       CU_GRAPH_NODE_TYPE_MEMCPY,           CU_GRAPH_NODE_TYPE_MEMSET,
    CU_GRAPH_NODE_TYPE_HOST,         CU_GRAPH_NODE_TYPE_GRAPH,            CU_GRAPH_NODE_TYPE_EMPTY,
    CU_GRAPH_NODE_TYPE_WAIT_EVENT,   CU_GRAPH_NODE_TYPE_EVENT_RECORD,     CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL,
    CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT, CU_GRAPH_NODE_TYPE_MEM_ALLOC,      CU_GRAPH_NODE_TYPE_MEM_FREE,
    CU_GRAPH_NODE_TYPE_BATCH_MEM_OP, CU_GRAPH_NODE_TYPE_CONDITIONAL};

TEST(GraphNodeKinds, WhatIsKeptFromRunningIsReplayed) {
  for (CUgraphNodeType type : kEveryKind) {
    EXPECT_TRUE(!can_disable(type) || silenced(type)) << type;
    EXPECT_TRUE(!silenced(type) || replayable(type)) << type;
  }
  EXPECT_TRUE(can_disable(CU_GRAPH_NODE_TYPE_KERNEL));
  EXPECT_FALSE(can_disable(CU_GRAPH_NODE_TYPE_HOST));   // a stand-in instead
  EXPECT_TRUE(silenced(CU_GRAPH_NODE_TYPE_HOST));
  EXPECT_FALSE(silenced(CU_GRAPH_NODE_TYPE_GRAPH));     // its nodes are launched in its place
  EXPECT_STREQ(silencing_call(CU_GRAPH_NODE_TYPE_WAIT_EVENT), "cuGraphExecEventWaitNodeSetEvent");
  EXPECT_STREQ(silencing_call(CU_GRAPH_NODE_TYPE_MEMCPY), "cuGraphNodeSetEnabled");
}

TEST(GraphNodeKinds, EveryKindThatStopsReplayIsNamed) {
  const std::string unknown = "a node of a kind labbook does not know";
  for (CUgraphNodeType type : kEveryKind) {
    if (!replayable(type)) {
      EXPECT_NE(node_type_name(type), unknown) << type;
    }
  }
  EXPECT_STREQ(node_type_name(CU_GRAPH_NODE_TYPE_CONDITIONAL), "a conditional node");
}

}  // namespace
