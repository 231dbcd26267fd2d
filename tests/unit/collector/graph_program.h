#pragma once
// The fake driver's programs for the collector's graph tests: a Program makes its graph calls
// alone or with the collector's GraphFollower called back as in a metrics run, and run() keeps
// what the GPU was sent, so that a test sets the two side by side.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "fake_graph_driver.h"
#include "graph_follower.h"
#include "graph_kernels.h"

namespace graph_test {

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

inline CUstream stream(std::uintptr_t id) { return reinterpret_cast<CUstream>(id); }

/// Kernel node parameters over `arguments`, which must outlive the call they are passed to.
inline CUDA_KERNEL_NODE_PARAMS kernel_params(CUfunction f, std::vector<void*>& arguments, unsigned grid = 4) {
  CUDA_KERNEL_NODE_PARAMS p{};
  p.func = f;
  p.gridDimX = grid, p.gridDimY = p.gridDimZ = 1;
  p.blockDimX = 256, p.blockDimY = p.blockDimZ = 1;
  p.kernelParams = arguments.data();
  return p;
}

/// A one-dimensional device-to-device copy, as a memcpy node takes it.
inline CUDA_MEMCPY3D device_copy(std::uint64_t from, std::uint64_t to, std::size_t bytes) {
  CUDA_MEMCPY3D c{};
  c.srcMemoryType = c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
  c.srcDevice = from, c.dstDevice = to, c.WidthInBytes = bytes, c.Height = c.Depth = 1;
  return c;
}

inline CUgraphNode add_kernel(CUgraph g, std::vector<CUgraphNode> after, const CUDA_KERNEL_NODE_PARAMS& p) {
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

/// A host function that notes `*static_cast<std::string*>(name)` where it runs.
inline void CUDA_CB note_host_call(void* name) {
  fake_driver::note("host " + *static_cast<const std::string*>(name));
}

}  // namespace graph_test
