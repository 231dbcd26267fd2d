// The collector's graph replay following a program's changes to its executable graphs (set
// parameters, enable, update, child graphs), on a fake driver (graph_program.h): the GPU must be
// sent the same work as without labbook, or the graph given back to run whole and the issue said.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "graph_program.h"

namespace {

using namespace graph_test;

// tests/programs/graph_update.cu through the driver API: parameters changed, a node disabled
// and enabled again, the graph destroyed, and the exec updated from a new graph destroyed at once.
void changed_between_launches(Program& p) {
  CUfunction scale = fake_driver::kernel("scale", {8, 4, 4});
  CUfunction accumulate = fake_driver::kernel("accumulate", {8, 8, 4});
  std::uint64_t x = 0x1000, y = 0x2000;
  int n = 1024;
  float a = 2.0f;
  std::vector<void*> scale_args{&x, &n, &a}, add_args{&y, &x, &n};
  CUgraph graph = nullptr;
  cuGraphCreate(&graph, 0);
  CUgraphNode scale_node = add_kernel(graph, {}, kernel_params(scale, scale_args));
  CUgraphNode add_node = add_kernel(graph, {scale_node}, kernel_params(accumulate, add_args));
  CUgraphExec exec = p.instantiate(graph);
  p.launch(exec, stream(1));
  a = 3.0f;   // the graph has its own copy: nothing changes ...
  p.launch(exec, stream(1));
  EXPECT_EQ(p.set_kernel(exec, scale_node, kernel_params(scale, scale_args)), CUDA_SUCCESS);   // ... until now
  p.launch(exec, stream(1));
  EXPECT_EQ(p.set_enabled(exec, add_node, false), CUDA_SUCCESS);
  EXPECT_EQ(p.enabled(exec, add_node), 0u);
  p.launch(exec, stream(1));
  EXPECT_EQ(p.set_enabled(exec, add_node, true), CUDA_SUCCESS);
  EXPECT_EQ(p.enabled(exec, add_node), 1u);
  p.launch(exec, stream(2));
  p.destroy(graph);
  a = 0.5f;
  CUgraph next = nullptr;
  cuGraphCreate(&next, 0);
  CUgraphNode next_scale = add_kernel(next, {}, kernel_params(scale, scale_args));
  add_kernel(next, {next_scale}, kernel_params(accumulate, add_args));
  EXPECT_EQ(p.update(exec, next), CUDA_SUCCESS);
  p.destroy(next);
  p.launch(exec, stream(1));
}

TEST(GraphReplay, AProgramChangingItsGraphSendsTheGpuTheSameWork) {
  under_both_driver_models(changed_between_launches, [](const auto& alone, const auto& profiled, bool) {
    ASSERT_EQ(alone.work.size(), 11u);   // 2 + 2 + 2 + 1 + 2 + 2 kernels
    EXPECT_EQ(alone.by_graph_launches, 11u);
    EXPECT_EQ(profiled.work, alone.work);
    EXPECT_EQ(profiled.by_graph_launches, 0u) << "the graph itself ran nodes labbook launched too";
    EXPECT_TRUE(profiled.program.issue_codes().empty()) << profiled.program.issue_messages();
  });
}

// After an update, the program changes a node through the updating graph's handle: a driver
// that takes it changes the node, and the copy must follow; one that does not changes nothing.
void changed_through_the_update_handle(Program& p) {
  CUfunction fill = fake_driver::kernel("fill", {8, 4});
  std::uint64_t out = 0x3000;
  int value = 1;
  std::vector<void*> args{&out, &value};
  CUgraph graph = nullptr, next = nullptr;
  cuGraphCreate(&graph, 0);
  add_kernel(graph, {}, kernel_params(fill, args));
  CUgraphExec exec = p.instantiate(graph);
  value = 2;
  cuGraphCreate(&next, 0);
  CUgraphNode next_node = add_kernel(next, {}, kernel_params(fill, args));
  EXPECT_EQ(p.update(exec, next), CUDA_SUCCESS);
  p.launch(exec, stream(0));
  value = 3;
  p.set_kernel(exec, next_node, kernel_params(fill, args, 8));
  p.launch(exec, stream(0));
}

TEST(GraphReplay, ChangesThroughAnUpdatesHandlesAreFollowedWhereTheDriverTakesThem) {
  under_both_driver_models(changed_through_the_update_handle,
                           [](const auto& alone, const auto& profiled, bool accept_update_handles) {
                             ASSERT_EQ(alone.work.size(), 2u);
                             EXPECT_NE(alone.work[0] == alone.work[1], accept_update_handles);
                             EXPECT_EQ(profiled.work, alone.work);
                             EXPECT_EQ(profiled.by_graph_launches, 0u);
                           });
}

// Every node changed through the generic cudaGraphExecNodeSetParams, and the memcpy through
// its own setter too.
void changed_through_the_generic_setter(Program& p) {
  CUfunction k = fake_driver::kernel("k", {8, 4});
  std::uint64_t buffer = 0x5000;
  int n = 64;
  std::vector<void*> args{&buffer, &n};
  CUgraph graph = nullptr;
  cuGraphCreate(&graph, 0);
  CUgraphNode set = nullptr, copy = nullptr;
  const CUDA_MEMSET_NODE_PARAMS zero{buffer, 0, 0, 4, 64, 1};
  cuGraphAddMemsetNode(&set, graph, nullptr, 0, &zero, nullptr);
  CUgraphNode kernel = add_kernel(graph, {set}, kernel_params(k, args));
  CUDA_MEMCPY3D c = device_copy(buffer, 0x9000, 256);
  cuGraphAddMemcpyNode(&copy, graph, &kernel, 1, &c, nullptr);
  CUgraphExec exec = p.instantiate(graph);
  p.launch(exec, stream(0));

  CUgraphNodeParams node{};
  node.type = CU_GRAPH_NODE_TYPE_MEMSET;
  node.memset = CUDA_MEMSET_NODE_PARAMS_v2{buffer, 0, 9, 4, 32, 1, nullptr};
  EXPECT_EQ(cuGraphExecNodeSetParams(exec, set, &node), CUDA_SUCCESS);
  node = CUgraphNodeParams{};
  node.type = CU_GRAPH_NODE_TYPE_KERNEL;
  n = 32;
  node.kernel.func = k;
  node.kernel.gridDimX = node.kernel.gridDimY = node.kernel.gridDimZ = 2;
  node.kernel.blockDimX = 128, node.kernel.blockDimY = node.kernel.blockDimZ = 1;
  node.kernel.kernelParams = args.data();
  EXPECT_EQ(cuGraphExecNodeSetParams(exec, kernel, &node), CUDA_SUCCESS);
  node = CUgraphNodeParams{};
  node.type = CU_GRAPH_NODE_TYPE_MEMCPY;
  node.memcpy.copyParams = c;
  node.memcpy.copyParams.WidthInBytes = 128;
  EXPECT_EQ(cuGraphExecNodeSetParams(exec, copy, &node), CUDA_SUCCESS);
  p.launch(exec, stream(0));
  c.dstDevice = 0xA000;
  EXPECT_EQ(cuGraphExecMemcpyNodeSetParams(exec, copy, &c, nullptr), CUDA_SUCCESS);
  p.launch(exec, stream(0));
}

TEST(GraphReplay, ChangesThroughTheGenericAndMemcpySettersAreFollowed) {
  const auto alone = run(false, changed_through_the_generic_setter);
  ASSERT_EQ(alone->work.size(), 9u);
  EXPECT_NE(alone->work[3], alone->work[0]);
  EXPECT_NE(alone->work[4], alone->work[1]);
  EXPECT_NE(alone->work[8], alone->work[5]);
  const auto profiled = run(true, changed_through_the_generic_setter);
  EXPECT_EQ(profiled->work, alone->work);
  EXPECT_EQ(profiled->by_graph_launches, 0u);
  EXPECT_TRUE(profiled->program.issue_codes().empty()) << profiled->program.issue_messages();
}

// An update gives host nodes the program's function again: labbook puts its stand-in back.
void updated_with_a_host_node(Program& p) {
  CUfunction k = fake_driver::kernel("k", {4});
  int a = 1;
  std::vector<void*> args{&a};
  static std::string before = "before", after = "after";
  CUgraph graph = nullptr, next = nullptr;
  CUgraphNode host = nullptr;
  cuGraphCreate(&graph, 0);
  CUgraphNode kernel = add_kernel(graph, {}, kernel_params(k, args));
  const CUDA_HOST_NODE_PARAMS first{note_host_call, &before}, second{note_host_call, &after};
  cuGraphAddHostNode(&host, graph, &kernel, 1, &first);
  CUgraphExec exec = p.instantiate(graph);
  p.launch(exec, stream(0));
  cuGraphCreate(&next, 0);
  kernel = add_kernel(next, {}, kernel_params(k, args));
  cuGraphAddHostNode(&host, next, &kernel, 1, &second);
  EXPECT_EQ(p.update(exec, next), CUDA_SUCCESS);
  p.launch(exec, stream(0));
  p.launch(exec, stream(0));
}

TEST(GraphReplay, AnUpdatedHostNodeRunsOnceWithItsNewFunction) {
  const auto alone = run(false, updated_with_a_host_node);
  ASSERT_EQ(alone->work.size(), 6u);
  EXPECT_EQ(alone->work[5], "host after");
  const auto profiled = run(true, updated_with_a_host_node);
  EXPECT_EQ(profiled->work, alone->work);
  EXPECT_EQ(profiled->by_graph_launches, 0u);
  EXPECT_TRUE(profiled->program.issue_codes().empty()) << profiled->program.issue_messages();
}

// A change labbook cannot copy (arguments passed through `extra`) gives the graph back: it
// runs whole from then on, with the nodes the program left enabled, named through whichever
// graph's handles are still alive.
void changed_through_extra(Program& p, bool destroy_original) {
  CUfunction k = fake_driver::kernel("k", {4, 4});
  int i = 1, j = 2;
  std::vector<void*> args{&i, &j};
  CUgraph graph = nullptr, next = nullptr;
  cuGraphCreate(&graph, 0);
  CUgraphNode first = add_kernel(graph, {}, kernel_params(k, args));
  CUgraphNode second = add_kernel(graph, {first}, kernel_params(k, args));
  CUgraphExec exec = p.instantiate(graph);
  p.launch(exec, stream(0));
  EXPECT_EQ(p.set_enabled(exec, second, false), CUDA_SUCCESS);
  cuGraphCreate(&next, 0);
  CUgraphNode next_first = add_kernel(next, {}, kernel_params(k, args));
  add_kernel(next, {next_first}, kernel_params(k, args));
  EXPECT_EQ(p.update(exec, next), CUDA_SUCCESS);
  if (destroy_original) p.destroy(graph);
  int packed[2] = {5, 6};
  std::size_t size = sizeof packed;
  void* extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, packed, CU_LAUNCH_PARAM_BUFFER_SIZE, &size, CU_LAUNCH_PARAM_END};
  CUDA_KERNEL_NODE_PARAMS through_extra = kernel_params(k, args);
  through_extra.kernelParams = nullptr;
  through_extra.extra = extra;
  EXPECT_EQ(p.set_kernel(exec, destroy_original ? next_first : first, through_extra), CUDA_SUCCESS);
  p.launch(exec, stream(0));
}

TEST(GraphReplay, AChangeLabbookCannotCopyGivesTheGraphBackToRunWhole) {
  for (bool destroy_original : {false, true}) {
    SCOPED_TRACE(destroy_original ? "named through the update's handles" : "named through the original handles");
    // Only a driver that takes an update's handles lets the program name a node after the
    // original graph is gone.
    const auto scenario = [&](Program& p) { changed_through_extra(p, destroy_original); };
    const auto alone = run(false, scenario, destroy_original);
    const auto profiled = run(true, scenario, destroy_original);
    ASSERT_EQ(alone->work.size(), 3u);
    EXPECT_NE(alone->work[1], alone->work[2]);
    EXPECT_EQ(profiled->work, alone->work);
    EXPECT_EQ(profiled->by_graph_launches, 1u);
    EXPECT_EQ(profiled->program.issue_codes(), std::vector<std::string>{"graph_kernels_no_metrics"});
    EXPECT_NE(profiled->program.issue_messages().find("'extra'"), std::string::npos) << profiled->program.issue_messages();
  }
}

// An update graph whose parallel nodes were made in the other order: the driver pairs them
// through the join's edges, labbook's order would not, so labbook gives the graph back.
void update_made_in_another_order(Program& p) {
  CUfunction left = fake_driver::kernel("left", {4}), right = fake_driver::kernel("right", {4});
  int a = 1;
  std::vector<void*> args{&a};
  CUgraph graph = nullptr, next = nullptr;
  cuGraphCreate(&graph, 0);
  CUgraphNode l = add_kernel(graph, {}, kernel_params(left, args));
  CUgraphNode r = add_kernel(graph, {}, kernel_params(right, args));
  CUgraphNode join = nullptr;
  CUgraphNode both[] = {l, r};
  cuGraphAddEmptyNode(&join, graph, both, 2);
  CUgraphExec exec = p.instantiate(graph);
  p.launch(exec, stream(0));
  a = 2;
  cuGraphCreate(&next, 0);
  CUgraphNode r2 = add_kernel(next, {}, kernel_params(right, args));
  CUgraphNode l2 = add_kernel(next, {}, kernel_params(left, args, 8));
  CUgraphNode both2[] = {l2, r2};
  cuGraphAddEmptyNode(&join, next, both2, 2);
  EXPECT_EQ(p.update(exec, next), CUDA_SUCCESS);
  p.launch(exec, stream(0));
}

TEST(GraphReplay, AnUpdatePairedOtherwiseThanLabbooksOrderGivesTheGraphBack) {
  const auto alone = run(false, update_made_in_another_order);
  ASSERT_EQ(alone->work.size(), 4u);
  EXPECT_EQ(alone->work[2].substr(0, 12), "left<<<8,256");   // the driver paired left with left
  const auto profiled = run(true, update_made_in_another_order);
  EXPECT_EQ(profiled->work, alone->work);
  EXPECT_EQ(profiled->by_graph_launches, 2u);
  EXPECT_NE(profiled->program.issue_messages().find("in another order than labbook's"), std::string::npos)
      << profiled->program.issue_messages();
}

// An update labbook cannot pair gives the graph back after the driver gave its host node the
// program's new function: the give-back must leave that one, not put the old one back.
void update_in_another_order_with_a_host_node(Program& p) {
  CUfunction left = fake_driver::kernel("left", {4}), right = fake_driver::kernel("right", {4});
  int a = 1;
  std::vector<void*> args{&a};
  static std::string before = "before", after = "after";
  const CUDA_HOST_NODE_PARAMS first{note_host_call, &before}, second{note_host_call, &after};
  CUgraph graph = nullptr, next = nullptr;
  CUgraphNode join = nullptr, host = nullptr;
  cuGraphCreate(&graph, 0);
  CUgraphNode both[] = {add_kernel(graph, {}, kernel_params(left, args)), add_kernel(graph, {}, kernel_params(right, args))};
  cuGraphAddEmptyNode(&join, graph, both, 2);
  cuGraphAddHostNode(&host, graph, &join, 1, &first);
  CUgraphExec exec = p.instantiate(graph);
  p.launch(exec, stream(0));
  cuGraphCreate(&next, 0);
  CUgraphNode r2 = add_kernel(next, {}, kernel_params(right, args));
  CUgraphNode both2[] = {add_kernel(next, {}, kernel_params(left, args, 8)), r2};
  cuGraphAddEmptyNode(&join, next, both2, 2);
  cuGraphAddHostNode(&host, next, &join, 1, &second);
  EXPECT_EQ(p.update(exec, next), CUDA_SUCCESS);
  p.launch(exec, stream(0));
}

TEST(GraphReplay, AGiveBackAfterAnUpdateKeepsTheUpdatedHostFunction) {
  const auto alone = run(false, update_in_another_order_with_a_host_node);
  ASSERT_EQ(alone->work.size(), 6u);
  EXPECT_EQ(alone->work.back(), "host after");
  const auto profiled = run(true, update_in_another_order_with_a_host_node);
  EXPECT_EQ(profiled->work, alone->work);
  EXPECT_NE(profiled->program.issue_messages().find("in another order than labbook's"), std::string::npos)
      << profiled->program.issue_messages();
}

// cudaGraphExecChildGraphNodeSetParams: labbook does not copy the child's new nodes, so the
// graph is given back, its child's host function the program's new one.
void child_graph_replaced(Program& p) {
  CUfunction k = fake_driver::kernel("k", {4});
  int outer = 1, inner = 2;
  std::vector<void*> outer_args{&outer}, inner_args{&inner};
  static std::string before = "inner before", after = "inner after";
  const CUDA_HOST_NODE_PARAMS first{note_host_call, &before}, second{note_host_call, &after};
  CUgraph child = nullptr, next_child = nullptr, graph = nullptr;
  CUgraphNode host = nullptr, child_node = nullptr;
  cuGraphCreate(&child, 0);
  CUgraphNode inner_kernel = add_kernel(child, {}, kernel_params(k, inner_args));
  cuGraphAddHostNode(&host, child, &inner_kernel, 1, &first);
  cuGraphCreate(&graph, 0);
  CUgraphNode top = add_kernel(graph, {}, kernel_params(k, outer_args));
  cuGraphAddChildGraphNode(&child_node, graph, &top, 1, child);
  CUgraphExec exec = p.instantiate(graph);
  p.launch(exec, stream(0));
  inner = 3;
  cuGraphCreate(&next_child, 0);
  inner_kernel = add_kernel(next_child, {}, kernel_params(k, inner_args));
  cuGraphAddHostNode(&host, next_child, &inner_kernel, 1, &second);
  EXPECT_EQ(cuGraphExecChildGraphNodeSetParams(exec, child_node, next_child), CUDA_SUCCESS);
  p.launch(exec, stream(0));
}

TEST(GraphReplay, AChangedChildGraphIsGivenBackWithTheProgramsNewNodes) {
  const auto alone = run(false, child_graph_replaced);
  ASSERT_EQ(alone->work.size(), 6u);
  EXPECT_EQ(alone->work.back(), "host inner after");
  EXPECT_NE(alone->work[1], alone->work[4]) << "the inner kernel's argument changed";
  const auto profiled = run(true, child_graph_replaced);
  EXPECT_EQ(profiled->work, alone->work);
  EXPECT_EQ(profiled->program.issue_codes(), std::vector<std::string>{"graph_kernels_no_metrics"});
  EXPECT_NE(profiled->program.issue_messages().find("child graph's nodes"), std::string::npos)
      << profiled->program.issue_messages();
}

TEST(GraphReplay, AnExecsKernelNamesFollowUpdatesAndGoWithTheExec) {
  fake_driver::reset();
  Program p(true);
  CUfunction f = fake_driver::kernel("f", {}), g = fake_driver::kernel("g", {});
  std::vector<void*> none;
  CUgraph graph = nullptr, next = nullptr;
  cuGraphCreate(&graph, 0);
  add_kernel(graph, {}, kernel_params(f, none));
  CUgraphExec exec = p.instantiate(graph);
  EXPECT_EQ(p.kernels(exec), std::vector<std::string>{"f"});
  cuGraphCreate(&next, 0);
  add_kernel(next, {}, kernel_params(g, none));
  EXPECT_EQ(p.update(exec, next), CUDA_SUCCESS);
  EXPECT_EQ(p.kernels(exec), std::vector<std::string>{"g"});
  EXPECT_EQ(cuGraphExecDestroy(exec), CUDA_SUCCESS);
  EXPECT_TRUE(p.kernels(exec).empty());
}

}  // namespace
