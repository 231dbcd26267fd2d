#pragma once
/// @file
/// GraphReplay: metrics for every kernel node of a CUDA graph, as `ncu --graph-profiling
/// node` gives them. CUPTI 13.0's range profiler gives a whole graph launch one range (on the
/// H100: one range for three launches of a four-kernel graph, its values NaN), so in a
/// metrics run labbook launches a graph's nodes itself, one after another, into the stream
/// the program launched the graph into: ordinary launches, each of which gets a range. The
/// nodes are disabled in the program's executable graph, so nothing runs twice, and one node
/// after another is an order the graph allows, so the program computes what it computes
/// without labbook. Only metrics runs do this; the trace run times the graph as it is.
///
/// Kernel, memcpy and memset nodes are disabled in the exec. Host-function and event nodes
/// cannot be disabled, so the exec gets stand-ins for them (a host function that does
/// nothing, events of labbook's own: a recorded one, and one never recorded to wait on), and
/// labbook runs the program's host function (cuLaunchHostFunc) and records or waits on the
/// program's event in their place in the order. A child graph's nodes are launched in place
/// of the child-graph node, recursively: an exec names them by the handles of the child's
/// embedded graph (H100, driver 580: tools/probes/graph_node_standins.cu). Any other node
/// (allocation, external semaphore, batch memory operation, conditional...) leaves the graph
/// to run whole, its kernels without metrics, and adopt() says why. Driver API only; no CUPTI.
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <cuda.h>

namespace labbook::profiler {

class GraphReplay {
 public:
  GraphReplay();
  ~GraphReplay();
  GraphReplay(const GraphReplay&) = delete;
  GraphReplay& operator=(const GraphReplay&) = delete;

  /// At cuGraphInstantiate's exit: takes `exec` over if every node of `graph` can be
  /// replayed, copying the nodes and disabling them in `exec`. Returns "" when it did, else
  /// why not (the graph then runs whole).
  std::string adopt(CUgraphExec exec, CUgraph graph);
  bool adopted(CUgraphExec exec) const;

  /// At cuGraphLaunch's entry, for an adopted `exec`: launches its enabled nodes into
  /// `stream`, in order. Returns "" or what failed; `launched` counts the nodes that were.
  std::string launch_nodes(CUgraphExec exec, CUstream stream, std::size_t& launched);

  /// The program changed an adopted `exec` (call at the API's exit, when it succeeded): the
  /// copy follows, and the node stays disabled in `exec`. Each returns "" or why the copy
  /// could not follow: then release() the exec.
  std::string set_kernel(CUgraphExec exec, CUgraphNode node, const CUDA_KERNEL_NODE_PARAMS& params);
  std::string set_memcpy(CUgraphExec exec, CUgraphNode node, const CUDA_MEMCPY3D& params);
  std::string set_memset(CUgraphExec exec, CUgraphNode node, const CUDA_MEMSET_NODE_PARAMS& params);
  std::string set_host(CUgraphExec exec, CUgraphNode node, const CUDA_HOST_NODE_PARAMS& params);
  /// An event record or wait node's event.
  std::string set_event(CUgraphExec exec, CUgraphNode node, CUevent event);
  /// cuGraphExecChildGraphNodeSetParams on child-graph node `node`: the driver gave the
  /// child's nodes the program's new parameters, which labbook does not copy. Returns why the
  /// exec must be given back (release() then leaves the child's host and event nodes as the
  /// program set them), or "" for an exec that is not labbook's.
  std::string child_graph_changed(CUgraphExec exec, CUgraphNode node);
  std::string set_enabled(CUgraphExec exec, CUgraphNode node, bool enabled);
  /// cuGraphExecUpdate from `graph` (at its exit, when it succeeded): the copies take the
  /// updated parameters, node by node in order (an update keeps the topology and the nodes'
  /// enabled states), and the update's node handles as second names. Returns "" or why the
  /// copies could not follow: among others, an update whose nodes the driver pairs (through
  /// their edges) otherwise than labbook's order does.
  std::string refresh(CUgraphExec exec, CUgraph graph);
  /// Whether the program left `node` of an adopted `exec` enabled: what cuGraphNodeGetEnabled
  /// must tell it, where the exec itself says disabled. None for nodes labbook has not copied.
  std::optional<bool> enabled(CUgraphExec exec, CUgraphNode node);
  /// A change labbook does not copy: `exec` is given back to the program, its nodes enabled
  /// as the program left them, and runs whole from then on. Fails (and says so) once the
  /// graphs whose handles name the nodes are destroyed. Returns "" or what failed.
  std::string release(CUgraphExec exec);
  /// cuGraphExecDestroy.
  void forget(CUgraphExec exec);
  /// cuGraphDestroy: the node handles of execs instantiated (or updated) from `graph` die.
  void graph_destroyed(CUgraph graph);

  /// True while the calling thread is inside this class's own driver calls: the collector's
  /// callbacks must not take labbook's cuGraphNodeSetEnabled for the program's.
  static bool in_replay();

 private:
  struct Node;
  using Nodes = std::vector<Node>;
  /// What an exec's host and event nodes do while labbook runs the program's in their place.
  struct StandIns {
    CUevent recorded = nullptr;   // event record nodes record this one
    CUevent never_recorded = nullptr;   // event wait nodes wait on this one: no wait
    std::string create(const Nodes& nodes);   // the events, where `nodes` need them
    void destroy();
  };
  /// Keeps `n` from running in `exec` (disabled, or its stand-in), or lets it run as the
  /// program left it again, naming it by `handle`.
  static CUresult silence(CUgraphExec exec, CUgraphNode handle, const Node& n, const StandIns& stand_ins);
  static CUresult restore(CUgraphExec exec, CUgraphNode handle, const Node& n);
  /// After the program set host or event node `n` (named `node`) of `exec`: its stand-in
  /// back in place; "" or what failed. mutex_ held.
  std::string stand_in_again(CUgraphExec exec, CUgraphNode node, Node& n);
  struct Exec;
  /// `call` on the handle that names `n` in the exec: the instantiated graph's while it
  /// lives, else the last update's.
  template <typename Call>
  static CUresult through_live_handle(const Exec& e, const Node& n, Call call);
  /// An adopted exec: the copies, and the graphs whose node handles name them in the exec
  /// (the one it was instantiated from and the one of its last update; handles die with
  /// their graph).
  struct Exec {
    struct Source {
      CUgraph graph = nullptr;
      bool alive = false;
    };
    Nodes nodes;
    Source instantiated, update;
    StandIns stand_ins;
  };
  /// Copies the nodes `handles` name (a graph's, in order); "" or why they cannot be replayed.
  /// Always reads every node's type and dependencies; then the parameters, up to a problem.
  /// `enclosing`: for each node, the position of the child-graph node holding it (graph_kernels.h).
  static std::string read_nodes(const std::vector<CUgraphNode>& handles, const std::vector<std::size_t>& enclosing,
                                Nodes& nodes);
  static bool read_dependencies(const std::vector<CUgraphNode>& handles, Node& n);
  Node* find(CUgraphExec exec, CUgraphNode node);
  /// Applies `change` (returning "" or a problem) to `node` of `exec`, if labbook adopted it.
  template <typename Change>
  std::string change_node(CUgraphExec exec, CUgraphNode node, Change&& change);

  mutable std::mutex mutex_;
  std::map<CUgraphExec, Exec> execs_;
};

}  // namespace labbook::profiler
