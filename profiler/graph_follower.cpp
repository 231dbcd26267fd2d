#include "graph_follower.h"

#include "graph_exec_calls.h"
#include "graph_kernels.h"

namespace labbook::profiler {

namespace {

/// Every cuGraphInstantiate* variant's parameters begin with these two.
struct InstantiateParams {
  CUgraphExec* phGraphExec;
  CUgraph hGraph;
};

/// Both cuGraphExecUpdate variants' parameters begin with these two.
struct UpdateParams {
  CUgraphExec hGraphExec;
  CUgraph hGraph;
};

}  // namespace

GraphFollower::GraphFollower(IssueLog& issues, bool replay_nodes)
    : issues_(issues), replay_(replay_nodes ? std::make_unique<GraphReplay>() : nullptr) {}

void GraphFollower::on_instantiate(const CUpti_CallbackData& d) {
  if (d.callbackSite != CUPTI_API_EXIT) return;
  const auto* p = static_cast<const InstantiateParams*>(d.functionParams);
  if (!p->phGraphExec || !api_succeeded(d)) return;
  std::vector<std::string> kernels = graph_kernel_names(p->hGraph);
  std::string not_replayed = replay_ ? replay_->adopt(*p->phGraphExec, p->hGraph) : "";
  std::lock_guard<std::mutex> lock(mutex_);
  kernels_[*p->phGraphExec] = std::move(kernels);
  not_replayed_[*p->phGraphExec] = std::move(not_replayed);
}

void GraphFollower::on_exec_call(CUpti_CallbackId cbid, const CUpti_CallbackData& d) {
  if (GraphReplay::in_replay()) return;   // labbook's own calls are not the program's
  remember_kernels(cbid, d);
  if (!replay_) return;
  const GraphExecChange change = follow_graph_exec_call(*replay_, cbid, d);
  if (!change.problem.empty()) give_back(change.exec, change.problem);
}

// An exec's kernels change with cuGraphExecUpdate and are forgotten with the exec.
void GraphFollower::remember_kernels(CUpti_CallbackId cbid, const CUpti_CallbackData& d) {
  if (cbid == CUPTI_DRIVER_TRACE_CBID_cuGraphExecDestroy && d.callbackSite == CUPTI_API_ENTER) {
    const CUgraphExec exec = static_cast<const cuGraphExecDestroy_params*>(d.functionParams)->hGraphExec;
    std::lock_guard<std::mutex> lock(mutex_);
    kernels_.erase(exec);
    not_replayed_.erase(exec);
  } else if ((cbid == CUPTI_DRIVER_TRACE_CBID_cuGraphExecUpdate || cbid == CUPTI_DRIVER_TRACE_CBID_cuGraphExecUpdate_v2) &&
             d.callbackSite == CUPTI_API_EXIT && api_succeeded(d)) {
    const auto* p = static_cast<const UpdateParams*>(d.functionParams);
    std::vector<std::string> kernels = graph_kernel_names(p->hGraph);
    std::lock_guard<std::mutex> lock(mutex_);
    if (auto it = kernels_.find(p->hGraphExec); it != kernels_.end()) it->second = std::move(kernels);
  }
}

// An adopted graph whose copy cannot follow the program runs whole from now on. If even that
// fails (its nodes stay disabled), this run computes something else: said loudly.
void GraphFollower::give_back(CUgraphExec exec, const std::string& why) {
  if (!replay_->adopted(exec)) return;
  if (const std::string failed = replay_->release(exec); !failed.empty())
    issues_.add("graph_replay_failed", "labbook could not follow a change to a CUDA graph (" + why +
                                           ") nor give the graph back (" + failed +
                                           "): this metrics run's later results and metrics may be wrong");
  std::lock_guard<std::mutex> lock(mutex_);
  not_replayed_[exec] = why;
}

bool GraphFollower::launch_nodes(CUgraphExec exec, CUstream stream) {
  if (!replay_ || !replay_->adopted(exec)) return false;
  if (stream_is_capturing(stream)) {   // captured into another graph: it must be whole
    give_back(exec, "the graph was launched into a stream being captured");
    return false;
  }
  std::size_t launched = 0;
  if (const std::string problem = replay_->launch_nodes(exec, stream, launched); !problem.empty()) {
    if (launched == 0) {   // nothing ran yet: the graph can still run whole, without metrics
      give_back(exec, problem);
      return false;
    }
    issues_.add("graph_replay_failed", "labbook could not launch a graph's nodes one by one (" + problem +
                                           "), after launching " + std::to_string(launched) +
                                           " of them: this run's later results and metrics may be wrong");
  }
  return true;
}

std::vector<std::string> GraphFollower::kernels(CUgraphExec exec) const {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = kernels_.find(exec);
  return it == kernels_.end() ? std::vector<std::string>{} : it->second;
}

void GraphFollower::ran_whole(CUgraphExec exec) {
  std::string why = "labbook gave the graph back";
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (const auto it = not_replayed_.find(exec); it != not_replayed_.end() && !it->second.empty()) why = it->second;
  }
  issues_.add("graph_kernels_no_metrics",
              "kernels launched as CUDA graph nodes get times but no metrics where labbook cannot launch the "
              "graph's nodes one by one (" + why + "): CUPTI 13.0's range profiler cannot attribute counters "
              "to a graph's kernel nodes");
}

}  // namespace labbook::profiler
