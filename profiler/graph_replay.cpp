#include "graph_replay.h"

#include <algorithm>
#include <cstdint>
#include <optional>

#include "driver_status.h"
#include "graph_kernels.h"

namespace labbook::profiler {

namespace {

thread_local bool t_in_replay = false;

constexpr const char* kUnknownNode = "the program changed a node labbook had not copied";

struct InReplay {   // marks this thread's driver calls as labbook's own for a scope
  InReplay() { t_in_replay = true; }
  ~InReplay() { t_in_replay = false; }
};

bool replayable(CUgraphNodeType type) {
  switch (type) {
    case CU_GRAPH_NODE_TYPE_KERNEL:
    case CU_GRAPH_NODE_TYPE_MEMCPY:
    case CU_GRAPH_NODE_TYPE_MEMSET:
    case CU_GRAPH_NODE_TYPE_EMPTY:
    case CU_GRAPH_NODE_TYPE_HOST:
    case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
    case CU_GRAPH_NODE_TYPE_WAIT_EVENT:
    case CU_GRAPH_NODE_TYPE_GRAPH: return true;
    default: return false;
  }
}

/// Nodes the exec can disable; host and event nodes get stand-ins instead.
bool can_disable(CUgraphNodeType type) {
  return type == CU_GRAPH_NODE_TYPE_KERNEL || type == CU_GRAPH_NODE_TYPE_MEMCPY || type == CU_GRAPH_NODE_TYPE_MEMSET;
}

/// Whether labbook does something to keep `type` from running in the exec.
bool silenced(CUgraphNodeType type) {
  return can_disable(type) || type == CU_GRAPH_NODE_TYPE_HOST || type == CU_GRAPH_NODE_TYPE_EVENT_RECORD ||
         type == CU_GRAPH_NODE_TYPE_WAIT_EVENT;
}

/// The call that keeps a node of `type` from running in an exec, for messages.
const char* silencing_call(CUgraphNodeType type) {
  switch (type) {
    case CU_GRAPH_NODE_TYPE_HOST: return "cuGraphExecHostNodeSetParams";
    case CU_GRAPH_NODE_TYPE_EVENT_RECORD: return "cuGraphExecEventRecordNodeSetEvent";
    case CU_GRAPH_NODE_TYPE_WAIT_EVENT: return "cuGraphExecEventWaitNodeSetEvent";
    default: return "cuGraphNodeSetEnabled";
  }
}

/// The host function a host node runs in the exec while labbook runs the program's.
void CUDA_CB do_nothing(void*) {}

const char* node_type_name(CUgraphNodeType type) {
  switch (type) {
    case CU_GRAPH_NODE_TYPE_HOST: return "a host-function node";
    case CU_GRAPH_NODE_TYPE_GRAPH: return "a child-graph node";
    case CU_GRAPH_NODE_TYPE_WAIT_EVENT: return "an event-wait node";
    case CU_GRAPH_NODE_TYPE_EVENT_RECORD: return "an event-record node";
    case CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL:
    case CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT: return "an external-semaphore node";
    case CU_GRAPH_NODE_TYPE_MEM_ALLOC: return "a memory-allocation node";
    case CU_GRAPH_NODE_TYPE_MEM_FREE: return "a memory-free node";
    case CU_GRAPH_NODE_TYPE_BATCH_MEM_OP: return "a batch-memory-operation node";
    case CU_GRAPH_NODE_TYPE_CONDITIONAL: return "a conditional node";
    default: return "a node of a kind labbook does not know";
  }
}

}  // namespace

/// One node as labbook launches it: a copy of what the program gave the graph, since the
/// graph (and the arguments it holds) may be destroyed right after instantiation.
struct GraphReplay::Node {
  CUgraphNode handle = nullptr;          // in the graph the exec was instantiated from
  CUgraphNode update_handle = nullptr;   // its pair in the graph of the exec's last update
  CUgraphNodeType type = CU_GRAPH_NODE_TYPE_EMPTY;
  std::vector<std::size_t> dependencies;   // positions in the node list, in the graph's edge order
  bool enabled = true;   // as the program left it; in the exec labbook keeps it disabled
  // kernel
  CUfunction function = nullptr;
  unsigned grid[3] = {1, 1, 1}, block[3] = {1, 1, 1}, shared_bytes = 0;
  std::vector<std::vector<unsigned char>> arguments;
  std::vector<CUlaunchAttribute> attributes;
  // memcpy, memset
  CUDA_MEMCPY3D copy{};
  CUDA_MEMSET_NODE_PARAMS set{};
  // host function; event record or wait
  CUDA_HOST_NODE_PARAMS host{};
  CUevent event = nullptr;
  // Whether the exec runs labbook's stand-in for this host or event node, not the program's:
  // an update or a child graph's change puts the program's back, which a give-back keeps.
  bool stand_in = false;
  std::size_t enclosing = kOwnNode;   // position of the child-graph node holding it
};

namespace {

/// A kernel's parameters, by index: through its CUkernel where the node names one (the
/// runtime hands the driver CUkernels, possibly cast to CUfunction), else its CUfunction.
struct ParameterInfo {
  CUfunction function = nullptr;
  CUkernel kernel = nullptr;
  CUresult get(std::size_t index, std::size_t& offset, std::size_t& size) const {
    return kernel ? cuKernelGetParamInfo(kernel, index, &offset, &size)
                  : cuFuncGetParamInfo(function, index, &offset, &size);
  }
};

/// Copies a kernel node's launch: function, shape and the bytes of every argument.
std::string copy_kernel(const CUDA_KERNEL_NODE_PARAMS& p, CUfunction& function, unsigned (&grid)[3],
                        unsigned (&block)[3], unsigned& shared_bytes,
                        std::vector<std::vector<unsigned char>>& arguments) {
  if (p.extra) return "a kernel node whose arguments are passed through 'extra'";
  if (!p.func && p.ctx) {   // the context is ignored when func is set
    CUcontext current = nullptr;
    cuCtxGetCurrent(&current);
    if (p.ctx != current) return "a kernel node bound to another context";
  }
  CUfunction f = p.func;
  if (!f && p.kern) {
    if (CUresult r = cuKernelGetFunction(&f, p.kern); r != CUDA_SUCCESS) return describe_driver_call("cuKernelGetFunction", r);
  }
  if (!f) return "a kernel node without a function";
  ParameterInfo info{f, p.kern};
  std::size_t offset = 0, size = 0;
  if (!info.kernel && info.get(0, offset, size) != CUDA_SUCCESS &&
      cuKernelGetParamInfo(reinterpret_cast<CUkernel>(f), 0, &offset, &size) == CUDA_SUCCESS)
    info.kernel = reinterpret_cast<CUkernel>(f);   // a CUkernel passed as a CUfunction
  std::vector<std::vector<unsigned char>> copied;
  for (std::size_t i = 0;; ++i) {
    const CUresult r = info.get(i, offset, size);
    if (r == CUDA_ERROR_INVALID_VALUE) break;   // past the last parameter
    if (r != CUDA_SUCCESS) return describe_driver_call("cuFuncGetParamInfo", r);
    if (!p.kernelParams || !p.kernelParams[i]) return "a kernel node without its arguments";
    const auto* bytes = static_cast<const unsigned char*>(p.kernelParams[i]);
    copied.emplace_back(bytes, bytes + size);
  }
  function = f;
  grid[0] = p.gridDimX, grid[1] = p.gridDimY, grid[2] = p.gridDimZ;
  block[0] = p.blockDimX, block[1] = p.blockDimY, block[2] = p.blockDimZ;
  shared_bytes = p.sharedMemBytes;
  arguments = std::move(copied);
  return "";
}

/// The launch attributes a kernel node sets that change what or how it computes. A node
/// updated from the device cannot be copied; a cluster size compiled into the kernel must not
/// be given again at launch.
std::string copy_attributes(CUgraphNode node, CUfunction function, std::vector<CUlaunchAttribute>& attributes) {
  const auto get = [&](CUlaunchAttributeID id, CUlaunchAttributeValue& v) {
    v = CUlaunchAttributeValue{};
    return cuGraphKernelNodeGetAttribute(node, id, &v) == CUDA_SUCCESS;
  };
  const auto keep = [&](CUlaunchAttributeID id, const CUlaunchAttributeValue& v) {
    CUlaunchAttribute a{};
    a.id = id;
    a.value = v;
    attributes.push_back(a);
  };
  attributes.clear();
  CUlaunchAttributeValue v;
  if (get(CU_LAUNCH_ATTRIBUTE_DEVICE_UPDATABLE_KERNEL_NODE, v) && v.deviceUpdatableKernelNode.deviceUpdatable)
    return "a kernel node updated from the device";
  if (get(CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW, v) && v.accessPolicyWindow.num_bytes > 0)
    keep(CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW, v);
  if (get(CU_LAUNCH_ATTRIBUTE_COOPERATIVE, v) && v.cooperative) keep(CU_LAUNCH_ATTRIBUTE_COOPERATIVE, v);
  int compiled_cluster = 0;
  cuFuncGetAttribute(&compiled_cluster, CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH, function);
  if (compiled_cluster == 0 && get(CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION, v) &&
      v.clusterDim.x * v.clusterDim.y * v.clusterDim.z > 1)
    keep(CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION, v);
  if (get(CU_LAUNCH_ATTRIBUTE_PRIORITY, v) && v.priority != 0) keep(CU_LAUNCH_ATTRIBUTE_PRIORITY, v);
  return "";
}

}  // namespace

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

std::string GraphReplay::StandIns::create(const Nodes& nodes) {
  for (const Node& n : nodes) {
    if (n.type != CU_GRAPH_NODE_TYPE_EVENT_RECORD && n.type != CU_GRAPH_NODE_TYPE_WAIT_EVENT) continue;
    for (CUevent* e : {&recorded, &never_recorded}) {
      if (CUresult r = cuEventCreate(e, CU_EVENT_DISABLE_TIMING); r != CUDA_SUCCESS) {
        destroy();
        return describe_driver_call("cuEventCreate", r);
      }
    }
    break;
  }
  return "";
}

void GraphReplay::StandIns::destroy() {
  for (CUevent* e : {&recorded, &never_recorded})
    if (*e) cuEventDestroy(*e), *e = nullptr;
}

CUresult GraphReplay::silence(CUgraphExec exec, CUgraphNode handle, const Node& n, const StandIns& stand_ins) {
  if (can_disable(n.type)) return cuGraphNodeSetEnabled(exec, handle, 0);
  switch (n.type) {
    case CU_GRAPH_NODE_TYPE_HOST: {
      const CUDA_HOST_NODE_PARAMS quiet{do_nothing, nullptr};
      return cuGraphExecHostNodeSetParams(exec, handle, &quiet);
    }
    case CU_GRAPH_NODE_TYPE_EVENT_RECORD: return cuGraphExecEventRecordNodeSetEvent(exec, handle, stand_ins.recorded);
    case CU_GRAPH_NODE_TYPE_WAIT_EVENT: return cuGraphExecEventWaitNodeSetEvent(exec, handle, stand_ins.never_recorded);
    default: return CUDA_SUCCESS;   // empty, child graph: nothing of their own runs
  }
}

CUresult GraphReplay::restore(CUgraphExec exec, CUgraphNode handle, const Node& n) {
  if (can_disable(n.type)) return cuGraphNodeSetEnabled(exec, handle, n.enabled ? 1 : 0);
  switch (n.type) {
    case CU_GRAPH_NODE_TYPE_HOST: return cuGraphExecHostNodeSetParams(exec, handle, &n.host);
    case CU_GRAPH_NODE_TYPE_EVENT_RECORD: return cuGraphExecEventRecordNodeSetEvent(exec, handle, n.event);
    case CU_GRAPH_NODE_TYPE_WAIT_EVENT: return cuGraphExecEventWaitNodeSetEvent(exec, handle, n.event);
    default: return CUDA_SUCCESS;
  }
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

GraphReplay::Node* GraphReplay::find(CUgraphExec exec, CUgraphNode node) {
  auto it = execs_.find(exec);
  if (it == execs_.end()) return nullptr;
  Exec& e = it->second;
  for (Node& n : e.nodes)
    if ((e.instantiated.alive && n.handle == node) || (e.update.alive && n.update_handle == node)) return &n;
  return nullptr;
}

template <typename Change>
std::string GraphReplay::change_node(CUgraphExec exec, CUgraphNode node, Change&& change) {
  InReplay own_calls;
  std::lock_guard<std::mutex> lock(mutex_);
  if (!execs_.count(exec)) return "";   // not labbook's: nothing to follow
  Node* n = find(exec, node);
  return n ? change(*n) : kUnknownNode;
}

std::string GraphReplay::set_kernel(CUgraphExec exec, CUgraphNode node, const CUDA_KERNEL_NODE_PARAMS& params) {
  return change_node(exec, node, [&](Node& n) {
    return copy_kernel(params, n.function, n.grid, n.block, n.shared_bytes, n.arguments);
  });
}

std::string GraphReplay::set_memcpy(CUgraphExec exec, CUgraphNode node, const CUDA_MEMCPY3D& params) {
  return change_node(exec, node, [&](Node& n) {
    n.copy = params;
    return std::string();
  });
}

std::string GraphReplay::set_memset(CUgraphExec exec, CUgraphNode node, const CUDA_MEMSET_NODE_PARAMS& params) {
  return change_node(exec, node, [&](Node& n) {
    n.set = params;
    return std::string();
  });
}

std::string GraphReplay::stand_in_again(CUgraphExec exec, CUgraphNode node, Node& n) {
  const CUresult r = silence(exec, node, n, execs_.at(exec).stand_ins);   // still labbook's to run
  n.stand_in = r == CUDA_SUCCESS;
  return r == CUDA_SUCCESS ? "" : describe_driver_call(silencing_call(n.type), r);
}

std::string GraphReplay::set_host(CUgraphExec exec, CUgraphNode node, const CUDA_HOST_NODE_PARAMS& params) {
  return change_node(exec, node, [&](Node& n) {
    n.host = params;
    return stand_in_again(exec, node, n);
  });
}

std::string GraphReplay::set_event(CUgraphExec exec, CUgraphNode node, CUevent event) {
  return change_node(exec, node, [&](Node& n) {
    n.event = event;
    return stand_in_again(exec, node, n);
  });
}

std::string GraphReplay::child_graph_changed(CUgraphExec exec, CUgraphNode node) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = execs_.find(exec);
  if (it == execs_.end()) return "";   // not labbook's: nothing to follow
  Nodes& nodes = it->second.nodes;
  const Node* child = find(exec, node);
  if (!child) return kUnknownNode;
  const std::size_t at = static_cast<std::size_t>(child - nodes.data());
  for (Node& n : nodes)   // the child's nodes, at any depth, now hold the program's new ones
    for (std::size_t p = n.enclosing; p != kOwnNode; p = nodes[p].enclosing)
      if (p == at) n.stand_in = false;
  return "the program changed a child graph's nodes";
}

std::string GraphReplay::set_enabled(CUgraphExec exec, CUgraphNode node, bool enabled) {
  return change_node(exec, node, [&](Node& n) -> std::string {
    n.enabled = enabled;
    if (!enabled) return "";
    const CUresult r = cuGraphNodeSetEnabled(exec, node, 0);   // still labbook's to launch
    return r == CUDA_SUCCESS ? "" : describe_driver_call("disabling a node again (cuGraphNodeSetEnabled)", r);
  });
}

std::optional<bool> GraphReplay::enabled(CUgraphExec exec, CUgraphNode node) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (const Node* n = find(exec, node)) return n->enabled;
  return std::nullopt;
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
