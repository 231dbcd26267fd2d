// The collector's graph replay (GraphFollower, GraphReplay) on a fake driver
// (fake_graph_driver.h): a program builds and launches CUDA graphs once alone and once with the
// collector's callbacks of a metrics run, and the GPU must be sent the same work in the same
// order, none of it by a graph labbook took over; where it cannot be, the collector's issues
// must say so. graph_replay_updates_test.cpp has the programs that change their graphs.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "graph_program.h"

namespace {

using namespace graph_test;

// Two branches between a memset and a memcpy, with an empty node where they join: the nodes
// go out one by one in a topological order, ties in creation order.
void branches(Program& p) {
  CUfunction left = fake_driver::kernel("left", {8}), right = fake_driver::kernel("right", {8});
  std::uint64_t buffer = 0x4000;
  std::vector<void*> args{&buffer};
  CUgraph graph = nullptr;
  cuGraphCreate(&graph, 0);
  CUgraphNode set = nullptr, join = nullptr, copy = nullptr;
  const CUDA_MEMSET_NODE_PARAMS zero{buffer, 512, 0, 2, 64, 16};   // 2D: 16 rows of 64 halves
  cuGraphAddMemsetNode(&set, graph, nullptr, 0, &zero, nullptr);
  CUgraphNode l = add_kernel(graph, {set}, kernel_params(left, args));
  CUgraphNode r = add_kernel(graph, {set}, kernel_params(right, args, 2));
  CUgraphNode both[] = {l, r};
  cuGraphAddEmptyNode(&join, graph, both, 2);
  const CUDA_MEMCPY3D c = device_copy(buffer, 0x8000, 4096);
  cuGraphAddMemcpyNode(&copy, graph, &join, 1, &c, nullptr);
  CUgraphExec exec = p.instantiate(graph);
  p.launch(exec, stream(3));
  const CUDA_MEMSET_NODE_PARAMS rows{buffer + 4096, 512, 7, 2, 64, 16};   // a 2D memset keeps its shape
  EXPECT_EQ(p.set_memset(exec, set, rows), CUDA_SUCCESS);
  p.launch(exec, stream(4));
}

TEST(GraphReplay, MemsetMemcpyEmptyNodesAndBranchesGoOutInAnOrderTheGraphAllows) {
  const auto alone = run(false, branches);
  const auto profiled = run(true, branches);
  ASSERT_EQ(alone->work.size(), 8u);
  EXPECT_EQ(profiled->work, alone->work);
  EXPECT_EQ(profiled->by_graph_launches, 0u);
  EXPECT_EQ(profiled->work[4], "memset16 20480 = 7 x 64x16 pitch 512 on stream 4");
}

TEST(GraphReplay, TheTraceRunNamesKernelNodesInTheOrderTheMetricsRunLaunchesThem) {
  fake_driver::reset();
  CUfunction c = fake_driver::kernel("c", {}), a = fake_driver::kernel("a", {}), b = fake_driver::kernel("b", {});
  std::vector<void*> none;
  CUgraph graph = nullptr;
  cuGraphCreate(&graph, 0);
  CUgraphNode first = add_kernel(graph, {}, kernel_params(c, none));
  CUgraphNode second = add_kernel(graph, {}, kernel_params(a, none));
  add_kernel(graph, {first}, kernel_params(b, none));
  CUgraphNode set = nullptr;
  const CUDA_MEMSET_NODE_PARAMS zero{0x100, 0, 0, 1, 8, 1};
  cuGraphAddMemsetNode(&set, graph, &second, 1, &zero, nullptr);
  const std::vector<std::string> names = labbook::profiler::graph_kernel_names(graph);
  EXPECT_EQ(names, (std::vector<std::string>{"c", "a", "b"}));
  Program p(true);
  p.launch(p.instantiate(graph), stream(0));
  std::vector<std::string> launched;
  for (const std::string& line : fake_driver::work())
    if (const auto end = line.find("<<<"); end != std::string::npos) launched.push_back(line.substr(0, end));
  EXPECT_EQ(launched, names);
}

// Kernel, host function, event record and wait, and a child graph holding a kernel, a host
// function and a child of its own, then a last kernel; changed between launches through the
// host and event setters (their own and the generic one).
void with_host_event_and_child_nodes(Program& p) {
  CUfunction k = fake_driver::kernel("k", {4});
  int first = 1, inner = 2, innermost = 3, last = 4;
  std::vector<void*> first_args{&first}, inner_args{&inner}, innermost_args{&innermost}, last_args{&last};
  static std::string outer_name = "outer", inner_name = "inner", changed_name = "changed";
  CUevent done = fake_driver::event(), other = fake_driver::event();

  CUgraph grandchild = nullptr, child = nullptr, graph = nullptr;
  cuGraphCreate(&grandchild, 0);
  add_kernel(grandchild, {}, kernel_params(k, innermost_args));
  cuGraphCreate(&child, 0);
  CUgraphNode child_kernel = add_kernel(child, {}, kernel_params(k, inner_args)), child_host = nullptr, nested = nullptr;
  const CUDA_HOST_NODE_PARAMS inner_call{note_host_call, &inner_name};
  cuGraphAddHostNode(&child_host, child, &child_kernel, 1, &inner_call);
  cuGraphAddChildGraphNode(&nested, child, &child_host, 1, grandchild);

  cuGraphCreate(&graph, 0);
  CUgraphNode kernel = add_kernel(graph, {}, kernel_params(k, first_args));
  CUgraphNode host = nullptr, record = nullptr, wait = nullptr, child_node = nullptr;
  const CUDA_HOST_NODE_PARAMS outer_call{note_host_call, &outer_name};
  cuGraphAddHostNode(&host, graph, &kernel, 1, &outer_call);
  cuGraphAddEventRecordNode(&record, graph, &host, 1, done);
  cuGraphAddEventWaitNode(&wait, graph, &record, 1, done);
  cuGraphAddChildGraphNode(&child_node, graph, &wait, 1, child);
  add_kernel(graph, {child_node}, kernel_params(k, last_args));
  CUgraphExec exec = p.instantiate(graph);
  p.launch(exec, stream(1));
  p.launch(exec, stream(2));

  const CUDA_HOST_NODE_PARAMS changed_call{note_host_call, &changed_name};
  EXPECT_EQ(cuGraphExecHostNodeSetParams(exec, host, &changed_call), CUDA_SUCCESS);
  EXPECT_EQ(cuGraphExecEventRecordNodeSetEvent(exec, record, other), CUDA_SUCCESS);
  CUgraphNodeParams node{};
  node.type = CU_GRAPH_NODE_TYPE_WAIT_EVENT;
  node.eventWait.event = other;
  EXPECT_EQ(cuGraphExecNodeSetParams(exec, wait, &node), CUDA_SUCCESS);
  p.launch(exec, stream(1));
  cuGraphDestroy(graph);   // labbook's copies and stand-ins outlive the graph
  p.launch(exec, stream(1));
  EXPECT_EQ(cuGraphExecDestroy(exec), CUDA_SUCCESS);
}

TEST(GraphReplay, HostEventAndChildGraphNodesRunInOrderAndOnceEach) {
  const auto alone = run(false, with_host_event_and_child_nodes);
  ASSERT_EQ(alone->work.size(), 4u * 8u);
  EXPECT_EQ(alone->work[1], "host outer");
  EXPECT_EQ(alone->work[2], "record event 1 on stream 1");
  EXPECT_EQ(alone->work[5], "host inner");
  EXPECT_EQ(alone->work[17], "host changed");
  EXPECT_EQ(alone->work[18], "record event 2 on stream 1");
  const auto profiled = run(true, with_host_event_and_child_nodes);
  EXPECT_EQ(profiled->work, alone->work);
  EXPECT_EQ(profiled->by_graph_launches, 0u);
  EXPECT_TRUE(profiled->program.issue_codes().empty()) << profiled->program.issue_messages();
}

// A node labbook cannot run itself (an allocation): the graph runs whole, as without labbook.
void with_an_allocation_node(Program& p) {
  CUfunction k = fake_driver::kernel("k", {});
  std::vector<void*> none;
  CUgraph graph = nullptr;
  cuGraphCreate(&graph, 0);
  CUgraphNode kernel = add_kernel(graph, {}, kernel_params(k, none));
  fake_driver::add_node_of_type(graph, {kernel}, CU_GRAPH_NODE_TYPE_MEM_ALLOC);
  p.launch(p.instantiate(graph), stream(0));
}

TEST(GraphReplay, AGraphWithANodeLabbookCannotRunRunsWholeAndSaysWhy) {
  const auto alone = run(false, with_an_allocation_node);
  const auto profiled = run(true, with_an_allocation_node);
  EXPECT_EQ(profiled->work, alone->work);
  EXPECT_EQ(profiled->by_graph_launches, 1u);
  EXPECT_EQ(profiled->program.issue_codes(), std::vector<std::string>{"graph_kernels_no_metrics"});
  EXPECT_NE(profiled->program.issue_messages().find("(the graph has a memory-allocation node)"), std::string::npos)
      << profiled->program.issue_messages();
}

TEST(GraphReplay, ANodeThatCannotBeDisabledLeavesTheGraphAsItWas) {
  const auto scenario = [](Program& p) {
    CUfunction k = fake_driver::kernel("k", {4});
    int i = 5;
    std::vector<void*> args{&i};
    CUgraph graph = nullptr;
    cuGraphCreate(&graph, 0);
    CUgraphNode first = add_kernel(graph, {}, kernel_params(k, args));
    fake_driver::fail_set_enabled(add_kernel(graph, {first}, kernel_params(k, args)));
    p.launch(p.instantiate(graph), stream(0));
  };
  const auto alone = run(false, scenario);
  const auto profiled = run(true, scenario);
  EXPECT_EQ(profiled->work, alone->work);
  EXPECT_EQ(profiled->by_graph_launches, 2u) << "the first node was left disabled";
  EXPECT_NE(profiled->program.issue_messages().find("(cuGraphNodeSetEnabled failed (CUDA_ERROR_INVALID_VALUE))"),
            std::string::npos)
      << profiled->program.issue_messages();
}

// A graph launched into a stream being captured must be whole (it becomes a child graph):
// given back, it runs whole from then on; where no handle that names its nodes is alive (the
// graph it came from destroyed, and the one of its last update, if any, too) it cannot be
// given back, and the collector says this run's results may be wrong.
void launched_into_a_capture(Program& p, bool destroy_graph, bool update) {
  CUfunction k = fake_driver::kernel("k", {});
  std::vector<void*> none;
  CUgraph graph = nullptr, next = nullptr;
  cuGraphCreate(&graph, 0);
  add_kernel(graph, {}, kernel_params(k, none));
  CUgraphExec exec = p.instantiate(graph);
  if (update) {
    cuGraphCreate(&next, 0);
    add_kernel(next, {}, kernel_params(k, none));
    EXPECT_EQ(p.update(exec, next), CUDA_SUCCESS);
  }
  if (destroy_graph) {
    p.destroy(graph);
    if (next) p.destroy(next);
  }
  p.launch(exec, stream(0));
  fake_driver::capture(stream(9));
  p.launch(exec, stream(9));
  p.launch(exec, stream(0));
}

TEST(GraphReplay, AGraphLaunchedIntoACaptureIsGivenBackOrSaysItCouldNotBe) {
  for (bool update : {false, true}) {
    SCOPED_TRACE(update ? "updated from a second graph" : "as instantiated");
    const auto kept = [&](Program& p) { launched_into_a_capture(p, false, update); };
    const auto alone = run(false, kept);
    ASSERT_EQ(alone->work.size(), 2u);
    const auto profiled = run(true, kept);
    EXPECT_EQ(profiled->work, alone->work);
    EXPECT_EQ(profiled->by_graph_launches, 1u);
    EXPECT_EQ(profiled->program.issue_codes(), std::vector<std::string>{"graph_kernels_no_metrics"});

    const auto destroyed = run(true, [&](Program& p) { launched_into_a_capture(p, true, update); });
    EXPECT_EQ(destroyed->program.issue_codes(), (std::vector<std::string>{"graph_replay_failed", "graph_kernels_no_metrics"}));
    EXPECT_NE(destroyed->program.issue_messages().find("the graphs that name its nodes were destroyed"), std::string::npos)
        << destroyed->program.issue_messages();
  }
}

}  // namespace
