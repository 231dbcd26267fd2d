#include "graph_exec_calls.h"

#include <algorithm>
#include <cstring>

namespace labbook::profiler {

namespace {

/// Both cuGraphExecUpdate variants' parameters begin with these two.
struct ExecUpdateParams {
  CUgraphExec hGraphExec;
  CUgraph hGraph;
};

}  // namespace

const std::vector<CUpti_CallbackId>& graph_exec_calls() {
  static const std::vector<CUpti_CallbackId> calls = {
      CUPTI_DRIVER_TRACE_CBID_cuGraphExecDestroy,
      CUPTI_DRIVER_TRACE_CBID_cuGraphExecKernelNodeSetParams,
      CUPTI_DRIVER_TRACE_CBID_cuGraphExecKernelNodeSetParams_v2,
      CUPTI_DRIVER_TRACE_CBID_cuGraphExecMemcpyNodeSetParams,
      CUPTI_DRIVER_TRACE_CBID_cuGraphExecMemsetNodeSetParams,
      CUPTI_DRIVER_TRACE_CBID_cuGraphExecHostNodeSetParams,
      CUPTI_DRIVER_TRACE_CBID_cuGraphExecEventRecordNodeSetEvent,
      CUPTI_DRIVER_TRACE_CBID_cuGraphExecEventWaitNodeSetEvent,
      CUPTI_DRIVER_TRACE_CBID_cuGraphExecChildGraphNodeSetParams,
      CUPTI_DRIVER_TRACE_CBID_cuGraphExecNodeSetParams,
      CUPTI_DRIVER_TRACE_CBID_cuGraphExecUpdate,
      CUPTI_DRIVER_TRACE_CBID_cuGraphExecUpdate_v2,
      CUPTI_DRIVER_TRACE_CBID_cuGraphNodeSetEnabled,
      CUPTI_DRIVER_TRACE_CBID_cuGraphNodeGetEnabled,
      CUPTI_DRIVER_TRACE_CBID_cuGraphDestroy};
  return calls;
}

bool is_graph_exec_call(CUpti_CallbackId cbid) {
  const auto& calls = graph_exec_calls();
  return std::find(calls.begin(), calls.end(), cbid) != calls.end();
}

bool api_succeeded(const CUpti_CallbackData& d) {
  const auto* result = static_cast<const CUresult*>(d.functionReturnValue);
  return !result || *result == CUDA_SUCCESS;
}

GraphExecChange follow_graph_exec_call(GraphReplay& replay, CUpti_CallbackId cbid, const CUpti_CallbackData& d) {
  if (cbid == CUPTI_DRIVER_TRACE_CBID_cuGraphExecDestroy) {
    if (d.callbackSite == CUPTI_API_ENTER)
      replay.forget(static_cast<const cuGraphExecDestroy_params*>(d.functionParams)->hGraphExec);
    return {};
  }
  if (cbid == CUPTI_DRIVER_TRACE_CBID_cuGraphDestroy) {
    if (d.callbackSite == CUPTI_API_ENTER)
      replay.graph_destroyed(static_cast<const cuGraphDestroy_params*>(d.functionParams)->hGraph);
    return {};
  }
  if (d.callbackSite != CUPTI_API_EXIT || !api_succeeded(d)) return {};
  CUgraphExec exec = nullptr;
  std::string problem;
  switch (cbid) {
    case CUPTI_DRIVER_TRACE_CBID_cuGraphExecKernelNodeSetParams_v2: {
      const auto* p = static_cast<const cuGraphExecKernelNodeSetParams_v2_params*>(d.functionParams);
      exec = p->hGraphExec;
      problem = replay.set_kernel(exec, p->hNode, *p->nodeParams);
      break;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuGraphExecKernelNodeSetParams: {   // v2 without kern and ctx
      const auto* p = static_cast<const cuGraphExecKernelNodeSetParams_params*>(d.functionParams);
      CUDA_KERNEL_NODE_PARAMS params{};
      std::memcpy(&params, p->nodeParams, sizeof *p->nodeParams);
      exec = p->hGraphExec;
      problem = replay.set_kernel(exec, p->hNode, params);
      break;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuGraphExecMemcpyNodeSetParams: {
      const auto* p = static_cast<const cuGraphExecMemcpyNodeSetParams_params*>(d.functionParams);
      exec = p->hGraphExec;
      problem = replay.set_memcpy(exec, p->hNode, *p->copyParams);
      break;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuGraphExecMemsetNodeSetParams: {
      const auto* p = static_cast<const cuGraphExecMemsetNodeSetParams_params*>(d.functionParams);
      exec = p->hGraphExec;
      problem = replay.set_memset(exec, p->hNode, *p->memsetParams);
      break;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuGraphExecHostNodeSetParams: {
      const auto* p = static_cast<const cuGraphExecHostNodeSetParams_params*>(d.functionParams);
      exec = p->hGraphExec;
      problem = replay.set_host(exec, p->hNode, *p->nodeParams);
      break;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuGraphExecEventRecordNodeSetEvent: {
      const auto* p = static_cast<const cuGraphExecEventRecordNodeSetEvent_params*>(d.functionParams);
      exec = p->hGraphExec;
      problem = replay.set_event(exec, p->hNode, p->event);
      break;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuGraphExecEventWaitNodeSetEvent: {
      const auto* p = static_cast<const cuGraphExecEventWaitNodeSetEvent_params*>(d.functionParams);
      exec = p->hGraphExec;
      problem = replay.set_event(exec, p->hNode, p->event);
      break;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuGraphExecChildGraphNodeSetParams: {
      const auto* p = static_cast<const cuGraphExecChildGraphNodeSetParams_params*>(d.functionParams);
      exec = p->hGraphExec;
      problem = replay.child_graph_changed(exec, p->hNode);
      break;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuGraphExecNodeSetParams: {
      const auto* p = static_cast<const cuGraphExecNodeSetParams_params*>(d.functionParams);
      exec = p->hGraphExec;
      const CUgraphNodeParams& n = *p->nodeParams;
      if (n.type == CU_GRAPH_NODE_TYPE_KERNEL) {
        CUDA_KERNEL_NODE_PARAMS params{};   // the same fields as the node's third version
        std::memcpy(&params, &n.kernel, sizeof params);
        problem = replay.set_kernel(exec, p->hNode, params);
      } else if (n.type == CU_GRAPH_NODE_TYPE_MEMCPY) {
        problem = replay.set_memcpy(exec, p->hNode, n.memcpy.copyParams);
      } else if (n.type == CU_GRAPH_NODE_TYPE_MEMSET) {
        const CUDA_MEMSET_NODE_PARAMS set{n.memset.dst, n.memset.pitch, n.memset.value, n.memset.elementSize,
                                          n.memset.width, n.memset.height};
        problem = replay.set_memset(exec, p->hNode, set);
      } else if (n.type == CU_GRAPH_NODE_TYPE_HOST) {
        const CUDA_HOST_NODE_PARAMS host{n.host.fn, n.host.userData};
        problem = replay.set_host(exec, p->hNode, host);
      } else if (n.type == CU_GRAPH_NODE_TYPE_EVENT_RECORD) {
        problem = replay.set_event(exec, p->hNode, n.eventRecord.event);
      } else if (n.type == CU_GRAPH_NODE_TYPE_WAIT_EVENT) {
        problem = replay.set_event(exec, p->hNode, n.eventWait.event);
      } else if (n.type == CU_GRAPH_NODE_TYPE_GRAPH) {
        problem = replay.child_graph_changed(exec, p->hNode);
      } else if (replay.adopted(exec)) {
        problem = "the program changed a node of a kind labbook does not copy";
      }
      break;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuGraphNodeSetEnabled: {
      const auto* p = static_cast<const cuGraphNodeSetEnabled_params*>(d.functionParams);
      exec = p->hGraphExec;
      problem = replay.set_enabled(exec, p->hNode, p->isEnabled != 0);
      break;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuGraphNodeGetEnabled: {   // the program sees its own state
      const auto* p = static_cast<const cuGraphNodeGetEnabled_params*>(d.functionParams);
      if (const auto enabled = replay.enabled(p->hGraphExec, p->hNode); enabled && p->isEnabled)
        *p->isEnabled = *enabled ? 1 : 0;
      return {};
    }
    case CUPTI_DRIVER_TRACE_CBID_cuGraphExecUpdate:
    case CUPTI_DRIVER_TRACE_CBID_cuGraphExecUpdate_v2: {
      const auto* p = static_cast<const ExecUpdateParams*>(d.functionParams);
      exec = p->hGraphExec;
      problem = replay.refresh(exec, p->hGraph);
      break;
    }
    default: return {};
  }
  return {exec, problem};
}

}  // namespace labbook::profiler
