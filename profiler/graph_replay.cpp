#include "graph_replay.h"

#include <algorithm>

#include "driver_status.h"
#include "graph_kernels.h"
#include "graph_node_copy.h"
#include "graph_node_kinds.h"
#include "graph_replay_internal.h"

namespace labbook::profiler {

/// `n`'s dependencies as positions in `handles`, in the graph's edge order: cuGraphExecUpdate
/// pairs nodes through them, so refresh() compares them.
bool GraphReplay::read_dependencies(const std::vector<CUgraphNode>& handles, Node& n) {
  // Edge data is asked for too: without it, a graph with programmatic (non-default) edges
  // answers CUDA_ERROR_LOSSY_QUERY.
  std::size_t count = 0;
  const CUresult counted = cuGraphNodeGetDependencies(n.handle, nullptr, nullptr, &count);
  if (counted != CUDA_SUCCESS && counted != CUDA_ERROR_LOSSY_QUERY) return false;
  std::vector<CUgraphNode> dependencies(count);
  std::vector<CUgraphEdgeData> edges(count);
  if (count && cuGraphNodeGetDependencies(n.handle, dependencies.data(), edges.data(), &count) != CUDA_SUCCESS)
    return false;
  dependencies.resize(count);
  n.dependencies.clear();
  for (CUgraphNode d : dependencies) {
    const auto at = std::find(handles.begin(), handles.end(), d);
    if (at == handles.end()) return false;
    n.dependencies.push_back(static_cast<std::size_t>(at - handles.begin()));
  }
  return true;
}

GraphReplay::GraphReplay() = default;
GraphReplay::~GraphReplay() = default;

bool GraphReplay::in_replay() { return t_in_replay; }

std::string GraphReplay::read_nodes(const std::vector<CUgraphNode>& handles, const std::vector<std::size_t>& enclosing,
                                    Nodes& nodes) {
  nodes.assign(handles.size(), Node{});
  for (std::size_t i = 0; i < handles.size(); ++i) {   // the shape first: refresh() pairs by it
    nodes[i].handle = handles[i];
    nodes[i].enclosing = enclosing[i];
    if (CUresult r = cuGraphNodeGetType(handles[i], &nodes[i].type); r != CUDA_SUCCESS)
      return describe_driver_call("cuGraphNodeGetType", r);
    if (!read_dependencies(handles, nodes[i])) return "the graph's edges could not be read";
  }
  for (Node& n : nodes) {
    if (!replayable(n.type)) return std::string("the graph has ") + node_type_name(n.type);
    if (n.type == CU_GRAPH_NODE_TYPE_KERNEL) {
      CUDA_KERNEL_NODE_PARAMS p{};
      if (CUresult r = cuGraphKernelNodeGetParams(n.handle, &p); r != CUDA_SUCCESS)
        return describe_driver_call("cuGraphKernelNodeGetParams", r);
      if (std::string why = copy_kernel(p, n.function, n.grid, n.block, n.shared_bytes, n.arguments); !why.empty())
        return why;
      if (std::string why = copy_attributes(n.handle, n.function, n.attributes); !why.empty()) return why;
    } else if (n.type == CU_GRAPH_NODE_TYPE_MEMCPY) {
      if (CUresult r = cuGraphMemcpyNodeGetParams(n.handle, &n.copy); r != CUDA_SUCCESS)
        return describe_driver_call("cuGraphMemcpyNodeGetParams", r);
    } else if (n.type == CU_GRAPH_NODE_TYPE_MEMSET) {
      if (CUresult r = cuGraphMemsetNodeGetParams(n.handle, &n.set); r != CUDA_SUCCESS)
        return describe_driver_call("cuGraphMemsetNodeGetParams", r);
    } else if (n.type == CU_GRAPH_NODE_TYPE_HOST) {
      if (CUresult r = cuGraphHostNodeGetParams(n.handle, &n.host); r != CUDA_SUCCESS)
        return describe_driver_call("cuGraphHostNodeGetParams", r);
    } else if (n.type == CU_GRAPH_NODE_TYPE_EVENT_RECORD) {
      if (CUresult r = cuGraphEventRecordNodeGetEvent(n.handle, &n.event); r != CUDA_SUCCESS)
        return describe_driver_call("cuGraphEventRecordNodeGetEvent", r);
    } else if (n.type == CU_GRAPH_NODE_TYPE_WAIT_EVENT) {
      if (CUresult r = cuGraphEventWaitNodeGetEvent(n.handle, &n.event); r != CUDA_SUCCESS)
        return describe_driver_call("cuGraphEventWaitNodeGetEvent", r);
    }
  }
  return nodes.empty() ? "the graph could not be read" : "";
}

std::string GraphReplay::adopt(CUgraphExec exec, CUgraph graph) {
  InReplay own_calls;
  forget(exec);
  cuuint64_t flags = 0;
  if (cuGraphExecGetFlags(exec, &flags) == CUDA_SUCCESS && (flags & CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH))
    return "the graph was instantiated for launches from the device";
  Nodes nodes;
  std::vector<std::size_t> enclosing;
  const std::vector<CUgraphNode> handles = graph_nodes_flattened(graph, &enclosing);
  if (std::string why = read_nodes(handles, enclosing, nodes); !why.empty()) return why;
  StandIns stand_ins;
  if (std::string why = stand_ins.create(nodes); !why.empty()) return why;
  // Silence last, and undo on failure: a half-silenced graph would compute something else.
  for (std::size_t silent = 0; silent < nodes.size(); ++silent) {
    if (CUresult r = silence(exec, nodes[silent].handle, nodes[silent], stand_ins); r != CUDA_SUCCESS) {
      for (std::size_t i = 0; i < silent; ++i) restore(exec, nodes[i].handle, nodes[i]);
      stand_ins.destroy();
      return describe_driver_call(silencing_call(nodes[silent].type), r);
    }
    nodes[silent].stand_in = !can_disable(nodes[silent].type) && silenced(nodes[silent].type);
  }
  std::lock_guard<std::mutex> lock(mutex_);
  execs_[exec] = Exec{std::move(nodes), {graph, true}, {}, stand_ins};
  return "";
}

std::string GraphReplay::refresh(CUgraphExec exec, CUgraph graph) {
  InReplay own_calls;
  std::vector<std::size_t> enclosing;
  const std::vector<CUgraphNode> handles = graph_nodes_flattened(graph, &enclosing);
  Nodes fresh;
  const std::string unreadable = read_nodes(handles, enclosing, fresh);
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = execs_.find(exec);
  if (it == execs_.end()) return "";
  Exec& e = it->second;
  // The update gave host and event nodes the program's new functions and events: should the
  // copies not follow (below), a give-back leaves those in place.
  for (Node& n : e.nodes) n.stand_in = false;
  if (fresh.size() != e.nodes.size()) return unreadable.empty() ? "the updated graph has other nodes" : unreadable;
  // The driver pairs an update's nodes through their edges, in edge order; labbook pairs them
  // by position in its order, which must then give every node its type and dependencies.
  for (std::size_t i = 0; i < fresh.size(); ++i)
    if (fresh[i].type != e.nodes[i].type || fresh[i].dependencies != e.nodes[i].dependencies)
      return "the updated graph's nodes pair with the graph's in another order than labbook's";
  // The update's graph may be destroyed at once, so the nodes keep the handles they were
  // instantiated from; the update's name them too (also for a give-back, should it come to that).
  for (std::size_t i = 0; i < fresh.size(); ++i) e.nodes[i].update_handle = handles[i];
  e.update = {graph, true};
  if (!unreadable.empty()) return unreadable;
  for (std::size_t i = 0; i < fresh.size(); ++i) {
    // An update changes parameters only: the exec's nodes keep their enabled states (CUDA
    // Programming Guide, "Individual Node Enable"), so they stay disabled in the exec, and
    // the program's own states carry over.
    fresh[i].enabled = e.nodes[i].enabled;
    fresh[i].handle = e.nodes[i].handle;
    fresh[i].update_handle = handles[i];
  }
  e.nodes = std::move(fresh);
  // Now the copies hold them: the stand-ins go back in their place.
  for (Node& n : e.nodes) {
    if (can_disable(n.type) || !silenced(n.type)) continue;
    if (CUresult r = through_live_handle(e, n, [&](CUgraphNode h) { return silence(exec, h, n, e.stand_ins); });
        r != CUDA_SUCCESS)
      return describe_driver_call(silencing_call(n.type), r);
    n.stand_in = true;
  }
  return "";
}

template <typename Call>
CUresult GraphReplay::through_live_handle(const Exec& e, const Node& n, Call call) {
  CUresult r = CUDA_ERROR_INVALID_VALUE;
  if (e.instantiated.alive) r = call(n.handle);
  if (r != CUDA_SUCCESS && e.update.alive && n.update_handle) r = call(n.update_handle);
  return r;
}

bool GraphReplay::adopted(CUgraphExec exec) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return execs_.count(exec) > 0;
}

std::string GraphReplay::launch_nodes(CUgraphExec exec, CUstream stream, std::size_t& launched) {
  launched = 0;
  Nodes nodes;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = execs_.find(exec);
    if (it == execs_.end()) return "the graph is not labbook's to replay";
    nodes = it->second.nodes;   // a copy: the program may change the exec from another thread
  }
  for (Node& n : nodes) {
    if (!n.enabled) continue;
    CUresult r = CUDA_SUCCESS;
    switch (n.type) {
      case CU_GRAPH_NODE_TYPE_KERNEL: {
        // Not marked as labbook's own: the collector must see this launch as the program's.
        CUlaunchConfig config{};
        config.gridDimX = n.grid[0], config.gridDimY = n.grid[1], config.gridDimZ = n.grid[2];
        config.blockDimX = n.block[0], config.blockDimY = n.block[1], config.blockDimZ = n.block[2];
        config.sharedMemBytes = n.shared_bytes;
        config.hStream = stream;
        config.attrs = n.attributes.empty() ? nullptr : n.attributes.data();
        config.numAttrs = static_cast<unsigned>(n.attributes.size());
        std::vector<void*> arguments;
        for (auto& value : n.arguments) arguments.push_back(value.data());
        r = cuLaunchKernelEx(&config, n.function, arguments.empty() ? nullptr : arguments.data(), nullptr);
        if (r != CUDA_SUCCESS) return describe_driver_call("launching a graph's kernel node", r);
        break;
      }
      case CU_GRAPH_NODE_TYPE_MEMCPY: {
        r = cuMemcpy3DAsync(&n.copy, stream);
        if (r != CUDA_SUCCESS) return describe_driver_call("copying as a graph's memcpy node", r);
        break;
      }
      case CU_GRAPH_NODE_TYPE_MEMSET: {
        const CUDA_MEMSET_NODE_PARAMS& s = n.set;
        const bool rows = s.height > 1;
        switch (s.elementSize) {
          case 1:
            r = rows ? cuMemsetD2D8Async(s.dst, s.pitch, static_cast<unsigned char>(s.value), s.width, s.height, stream)
                     : cuMemsetD8Async(s.dst, static_cast<unsigned char>(s.value), s.width, stream);
            break;
          case 2:
            r = rows ? cuMemsetD2D16Async(s.dst, s.pitch, static_cast<unsigned short>(s.value), s.width, s.height, stream)
                     : cuMemsetD16Async(s.dst, static_cast<unsigned short>(s.value), s.width, stream);
            break;
          default:
            r = rows ? cuMemsetD2D32Async(s.dst, s.pitch, s.value, s.width, s.height, stream)
                     : cuMemsetD32Async(s.dst, s.value, s.width, stream);
            break;
        }
        if (r != CUDA_SUCCESS) return describe_driver_call("setting memory as a graph's memset node", r);
        break;
      }
      case CU_GRAPH_NODE_TYPE_HOST: {
        r = cuLaunchHostFunc(stream, n.host.fn, n.host.userData);
        if (r != CUDA_SUCCESS) return describe_driver_call("running a graph's host-function node", r);
        break;
      }
      case CU_GRAPH_NODE_TYPE_EVENT_RECORD: {
        r = cuEventRecord(n.event, stream);
        if (r != CUDA_SUCCESS) return describe_driver_call("recording a graph's event node", r);
        break;
      }
      case CU_GRAPH_NODE_TYPE_WAIT_EVENT: {
        r = cuStreamWaitEvent(stream, n.event, 0);
        if (r != CUDA_SUCCESS) return describe_driver_call("waiting as a graph's event-wait node", r);
        break;
      }
      default: continue;   // empty, child graph (its nodes follow it)
    }
    ++launched;
  }
  return "";
}

std::string GraphReplay::release(CUgraphExec exec) {
  InReplay own_calls;
  Exec e;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = execs_.find(exec);
    if (it == execs_.end()) return "";
    e = std::move(it->second);
    execs_.erase(it);
  }
  // The driver names an exec's nodes by the handles of the graph it was instantiated from;
  // after an update, the update's handles are tried too, while their graph lives.
  std::string problem;
  for (const Node& n : e.nodes) {
    if (!silenced(n.type) || (can_disable(n.type) ? !n.enabled : !n.stand_in)) continue;
    const CUresult r = through_live_handle(e, n, [&](CUgraphNode h) { return restore(exec, h, n); });
    if (r == CUDA_SUCCESS || !problem.empty()) continue;   // the first problem says it; the others are tried
    problem = e.instantiated.alive || e.update.alive ? describe_driver_call(silencing_call(n.type), r)
                                                     : "the graphs that name its nodes were destroyed";
  }
  if (problem.empty()) e.stand_ins.destroy();   // else a node may still use them
  return problem;
}

void GraphReplay::forget(CUgraphExec exec) {
  StandIns stand_ins;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = execs_.find(exec);
    if (it == execs_.end()) return;
    stand_ins = it->second.stand_ins;
    execs_.erase(it);
  }
  stand_ins.destroy();   // an event in use is released once its work completes (cuEventDestroy)
}

void GraphReplay::graph_destroyed(CUgraph graph) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto& [exec, e] : execs_)
    for (Exec::Source* s : {&e.instantiated, &e.update})
      if (s->graph == graph) s->alive = false;
}

}  // namespace labbook::profiler
