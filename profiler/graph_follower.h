#pragma once
/// @file
/// GraphFollower: what the collector does with a program's CUDA graphs. It remembers each
/// executable graph's kernels (a graph launch counts as one launch per kernel node, in the
/// order graph_kernels.h gives), and in a metrics run hands the graph to GraphReplay, follows
/// the program's changes to it (graph_exec_calls.h), launches its nodes one by one at each of
/// its launches, and gives it back to run whole where the copy cannot follow, saying so in
/// the issue log. Driver API and CUPTI's callback data only; no CUPTI calls.
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <cuda.h>
#include <cupti.h>

#include "graph_replay.h"
#include "issue_log.h"

namespace labbook::profiler {

class GraphFollower {
 public:
  /// `replay_nodes` in metrics runs: graphs become labbook's to launch node by node.
  GraphFollower(IssueLog& issues, bool replay_nodes);

  /// A cuGraphInstantiate* callback (any variant; acts at the exit of a call that succeeded).
  void on_instantiate(const CUpti_CallbackData& d);
  /// A graph_exec_calls() callback (traced in every run): the program changes, queries or
  /// destroys an exec.
  void on_exec_call(CUpti_CallbackId cbid, const CUpti_CallbackData& d);
  /// At a metrics run's cuGraphLaunch entry: launches `exec`'s nodes into `stream` when labbook
  /// took the graph over (the graph launch itself then runs nothing). False where the graph
  /// must run whole.
  bool launch_nodes(CUgraphExec exec, CUstream stream);

  /// `exec`'s kernels (mangled names), in the order its launches are counted.
  std::vector<std::string> kernels(CUgraphExec exec) const;
  /// Notes that `exec` ran whole in a metrics run: its kernels get no metrics, and why.
  void ran_whole(CUgraphExec exec);

 private:
  void remember_kernels(CUpti_CallbackId cbid, const CUpti_CallbackData& d);
  void give_back(CUgraphExec exec, const std::string& why);

  IssueLog& issues_;
  std::unique_ptr<GraphReplay> replay_;   // metrics runs only
  mutable std::mutex mutex_;
  std::map<CUgraphExec, std::vector<std::string>> kernels_;
  std::map<CUgraphExec, std::string> not_replayed_;   // why, for graphs that run whole
};

}  // namespace labbook::profiler
