// The collector's graph handling (GraphFollower, GraphReplay) on a fake driver
// (fake_graph_driver.h): a program builds, changes and launches CUDA graphs once alone and
// once with the collector's callbacks of a metrics run, and the GPU must be sent the same work
// in the same order, none of it by a graph labbook took over; where it cannot be, the
// collector's issues must say so.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "fake_graph_driver.h"
#include "graph_follower.h"
#include "graph_kernels.h"

namespace {

using labbook::profiler::GraphFollower;
using labbook::profiler::IssueLog;

/// A program's graph calls on the fake driver. Profiled, the driver hands them to the
/// collector's GraphFollower at their entry and exit, as CUPTI's callbacks do in a metrics run
/// (collector_launches.cpp), labbook's own driver calls from inside a callback included.
class Program {
 public:
  explicit Program(bool profiled) {
    if (!profiled) return;
    graphs_ = std::make_unique<GraphFollower>(issues_, true);
    fake_driver::subscribe([this](CUpti_CallbackId cbid, const CUpti_CallbackData& d) { callback(cbid, d); });
  }
  Program(const Program&) = delete;
  Program& operator=(const Program&) = delete;

  CUgraphExec instantiate(CUgraph graph) {
    CUgraphExec exec = nullptr;
    EXPECT_EQ(cuGraphInstantiate(&exec, graph, 0), CUDA_SUCCESS);
    return exec;
  }
  void launch(CUgraphExec exec, CUstream stream) { EXPECT_EQ(cuGraphLaunch(exec, stream), CUDA_SUCCESS); }
  CUresult set_kernel(CUgraphExec exec, CUgraphNode node, const CUDA_KERNEL_NODE_PARAMS& p) {
    return cuGraphExecKernelNodeSetParams(exec, node, &p);
  }
  CUresult set_memset(CUgraphExec exec, CUgraphNode node, const CUDA_MEMSET_NODE_PARAMS& p) {
    return cuGraphExecMemsetNodeSetParams(exec, node, &p, nullptr);
  }
  CUresult set_enabled(CUgraphExec exec, CUgraphNode node, bool enabled) {
    return cuGraphNodeSetEnabled(exec, node, enabled ? 1 : 0);
  }
  unsigned enabled(CUgraphExec exec, CUgraphNode node) {
    unsigned value = 7;
    EXPECT_EQ(cuGraphNodeGetEnabled(exec, node, &value), CUDA_SUCCESS);
    return value;
  }
  CUresult update(CUgraphExec exec, CUgraph graph) {
    CUgraphExecUpdateResultInfo info{};
    return cuGraphExecUpdate(exec, graph, &info);
  }
  void destroy(CUgraph graph) { cuGraphDestroy(graph); }

  /// The codes of the issues the collector would report, in order.
  std::vector<std::string> issue_codes() const {
    std::vector<std::string> codes;
    for (const auto& i : issues_.snapshot()) codes.push_back(i.code);
    return codes;
  }
  std::string issue_messages() const {
    std::string all;
    for (const auto& i : issues_.snapshot()) all += i.code + ": " + i.message + "\n";
    return all;
  }
  /// The kernel names the trace run would count for `exec`'s launches.
  std::vector<std::string> kernels(CUgraphExec exec) const { return graphs_->kernels(exec); }

 private:
  void callback(CUpti_CallbackId cbid, const CUpti_CallbackData& d) {
    if (cbid == CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiateWithFlags) {
      graphs_->on_instantiate(d);
    } else if (cbid == CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch) {
      if (d.callbackSite != CUPTI_API_ENTER) return;
      const auto* p = static_cast<const cuGraphLaunch_params*>(d.functionParams);
      if (!graphs_->launch_nodes(p->hGraph, p->hStream) && !graphs_->kernels(p->hGraph).empty())
        graphs_->ran_whole(p->hGraph);
    } else {
      graphs_->on_exec_call(cbid, d);
    }
  }

  IssueLog issues_;
  std::unique_ptr<GraphFollower> graphs_;
};

CUstream stream(std::uintptr_t id) { return reinterpret_cast<CUstream>(id); }

/// Kernel node parameters over `arguments`, which must outlive the call they are passed to.
CUDA_KERNEL_NODE_PARAMS kernel_params(CUfunction f, std::vector<void*>& arguments, unsigned grid = 4) {
  CUDA_KERNEL_NODE_PARAMS p{};
  p.func = f;
  p.gridDimX = grid, p.gridDimY = p.gridDimZ = 1;
  p.blockDimX = 256, p.blockDimY = p.blockDimZ = 1;
  p.kernelParams = arguments.data();
  return p;
}

/// A one-dimensional device-to-device copy, as a memcpy node takes it.
CUDA_MEMCPY3D device_copy(std::uint64_t from, std::uint64_t to, std::size_t bytes) {
  CUDA_MEMCPY3D c{};
  c.srcMemoryType = c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
  c.srcDevice = from, c.dstDevice = to, c.WidthInBytes = bytes, c.Height = c.Depth = 1;
  return c;
}

CUgraphNode add_kernel(CUgraph g, std::vector<CUgraphNode> after, const CUDA_KERNEL_NODE_PARAMS& p) {
  CUgraphNode node = nullptr;
  EXPECT_EQ(cuGraphAddKernelNode(&node, g, after.data(), after.size(), &p), CUDA_SUCCESS);
  return node;
}

struct Run {
  std::vector<std::string> work;   // what the GPU was sent
  std::size_t by_graph_launches = 0;
  Program program;
};

/// Runs `scenario` on a fresh fake driver, alone or profiled.
template <typename Scenario>
std::unique_ptr<Run> run(bool profiled, Scenario scenario, bool accept_update_handles = false) {
  fake_driver::reset();
  fake_driver::accept_update_handles(accept_update_handles);
  auto r = std::unique_ptr<Run>(new Run{{}, 0, Program(profiled)});
  scenario(r->program);
  r->work = fake_driver::work();
  r->by_graph_launches = fake_driver::work_by_graph_launches();
  return r;
}

/// Runs `scenario` alone and profiled under both driver models (one that takes an update's
/// node handles, one that takes the original graph's only) and gives each pair to `check`.
template <typename Scenario, typename Check>
void under_both_driver_models(Scenario scenario, Check check) {
  for (bool accept_update_handles : {false, true}) {
    SCOPED_TRACE(accept_update_handles ? "the driver also takes an update's handles" : "original handles only");
    check(*run(false, scenario, accept_update_handles), *run(true, scenario, accept_update_handles),
          accept_update_handles);
  }
}

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

/// A host function that notes `*static_cast<std::string*>(name)` where it runs.
void CUDA_CB note_host_call(void* name) { fake_driver::note("host " + *static_cast<const std::string*>(name)); }

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
