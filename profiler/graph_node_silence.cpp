// A node of an adopted exec silenced while labbook launches the program's copy of it, and given
// back: disabled where the driver can disable its type; otherwise a host node runs a function
// that does nothing, and event nodes use stand-in events (one recorded, one never recorded).
#include "driver_status.h"
#include "graph_node_kinds.h"
#include "graph_replay_internal.h"

namespace labbook::profiler {

namespace {

/// The host function a host node runs in the exec while labbook runs the program's.
void CUDA_CB do_nothing(void*) {}

}  // namespace

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

}  // namespace labbook::profiler
