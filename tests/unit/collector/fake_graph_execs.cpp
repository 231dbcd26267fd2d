// The fake driver's calls on executable graphs (instantiate, set, update, launch, destroy),
// a graph's destruction and dependencies, and the work a program sends outside graphs
// (fake_graph_driver.h).
#include <algorithm>

#include "fake_graph_driver_state.h"

using namespace fake_driver::model;

extern "C" {

CUresult cuGraphInstantiate(CUgraphExec* out, CUgraph graph, unsigned long long flags) {
  return traced(CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiateWithFlags, cuGraphInstantiateWithFlags_params{out, graph, flags},
                [&]() -> CUresult {
    if (!graph || !graph->alive) return CUDA_ERROR_INVALID_VALUE;
    CUgraphExec_st& e = driver().execs.emplace_back();
    e.flags = flags;
    std::vector<CUgraphNode_st*> flattened;
    flatten(graph, flattened);
    for (CUgraphNode_st* n : flattened) {
      std::vector<std::size_t> dependencies;
      for (CUgraphNode_st* d : n->dependencies)
        dependencies.push_back(static_cast<std::size_t>(std::find(flattened.begin(), flattened.end(), d) - flattened.begin()));
      e.nodes.push_back({n, nullptr, n->work, true, std::move(dependencies)});
    }
    *out = &e;
    return CUDA_SUCCESS;
  });
}

CUresult cuGraphExecGetFlags(CUgraphExec exec, cuuint64_t* flags) {
  *flags = exec->flags;
  return CUDA_SUCCESS;
}

CUresult cuGraphExecKernelNodeSetParams(CUgraphExec exec, CUgraphNode node, const CUDA_KERNEL_NODE_PARAMS* params) {
  return traced(CUPTI_DRIVER_TRACE_CBID_cuGraphExecKernelNodeSetParams_v2,
                cuGraphExecKernelNodeSetParams_v2_params{exec, node, params}, [&]() -> CUresult {
    CUgraphExec_st::Node* n = exec_node(exec, node);
    if (!n || n->work.type != CU_GRAPH_NODE_TYPE_KERNEL) return CUDA_ERROR_INVALID_VALUE;
    return read_kernel(*params, n->work);
  });
}

// The documented limits: a 2D memset keeps its shape, a 1D one its height.
CUresult cuGraphExecMemsetNodeSetParams(CUgraphExec exec, CUgraphNode node, const CUDA_MEMSET_NODE_PARAMS* params,
                                        CUcontext ctx) {
  return traced(CUPTI_DRIVER_TRACE_CBID_cuGraphExecMemsetNodeSetParams,
                cuGraphExecMemsetNodeSetParams_params{exec, node, params, ctx}, [&]() -> CUresult {
    CUgraphExec_st::Node* n = exec_node(exec, node);
    if (!n || n->work.type != CU_GRAPH_NODE_TYPE_MEMSET) return CUDA_ERROR_INVALID_VALUE;
    const CUDA_MEMSET_NODE_PARAMS& was = n->work.set;
    if (params->height != was.height || params->elementSize != was.elementSize) return CUDA_ERROR_INVALID_VALUE;
    if (was.height > 1 && (params->width != was.width || params->pitch != was.pitch)) return CUDA_ERROR_INVALID_VALUE;
    n->work.set = *params;
    return CUDA_SUCCESS;
  });
}

CUresult cuGraphExecMemcpyNodeSetParams(CUgraphExec exec, CUgraphNode node, const CUDA_MEMCPY3D* params, CUcontext ctx) {
  return traced(CUPTI_DRIVER_TRACE_CBID_cuGraphExecMemcpyNodeSetParams,
                cuGraphExecMemcpyNodeSetParams_params{exec, node, params, ctx}, [&]() -> CUresult {
    CUgraphExec_st::Node* n = exec_node(exec, node);
    if (!n || n->work.type != CU_GRAPH_NODE_TYPE_MEMCPY) return CUDA_ERROR_INVALID_VALUE;
    n->work.copy = *params;
    return CUDA_SUCCESS;
  });
}

CUresult cuGraphExecHostNodeSetParams(CUgraphExec exec, CUgraphNode node, const CUDA_HOST_NODE_PARAMS* params) {
  return traced(CUPTI_DRIVER_TRACE_CBID_cuGraphExecHostNodeSetParams,
                cuGraphExecHostNodeSetParams_params{exec, node, params}, [&]() -> CUresult {
    CUgraphExec_st::Node* n = exec_node(exec, node);
    if (!n || n->work.type != CU_GRAPH_NODE_TYPE_HOST) return CUDA_ERROR_INVALID_VALUE;
    n->work.host = *params;
    return CUDA_SUCCESS;
  });
}

namespace {
CUresult set_event(CUgraphExec exec, CUgraphNode node, CUevent event, CUgraphNodeType type) {
  CUgraphExec_st::Node* n = exec_node(exec, node);
  if (!n || n->work.type != type || !event || !event->alive) return CUDA_ERROR_INVALID_VALUE;
  n->work.event = event;
  return CUDA_SUCCESS;
}
}  // namespace

CUresult cuGraphExecEventRecordNodeSetEvent(CUgraphExec exec, CUgraphNode node, CUevent event) {
  return traced(CUPTI_DRIVER_TRACE_CBID_cuGraphExecEventRecordNodeSetEvent,
                cuGraphExecEventRecordNodeSetEvent_params{exec, node, event},
                [&] { return set_event(exec, node, event, CU_GRAPH_NODE_TYPE_EVENT_RECORD); });
}

CUresult cuGraphExecEventWaitNodeSetEvent(CUgraphExec exec, CUgraphNode node, CUevent event) {
  return traced(CUPTI_DRIVER_TRACE_CBID_cuGraphExecEventWaitNodeSetEvent,
                cuGraphExecEventWaitNodeSetEvent_params{exec, node, event},
                [&] { return set_event(exec, node, event, CU_GRAPH_NODE_TYPE_WAIT_EVENT); });
}

// A child graph node's new graph: the same shape, each node's work taken over, enabled states kept.
CUresult cuGraphExecChildGraphNodeSetParams(CUgraphExec exec, CUgraphNode node, CUgraph child) {
  return traced(CUPTI_DRIVER_TRACE_CBID_cuGraphExecChildGraphNodeSetParams,
                cuGraphExecChildGraphNodeSetParams_params{exec, node, child}, [&]() -> CUresult {
    CUgraphExec_st::Node* n = exec_node(exec, node);
    if (!n || n->work.type != CU_GRAPH_NODE_TYPE_GRAPH || !graph_alive(child)) return CUDA_ERROR_INVALID_VALUE;
    std::vector<CUgraphNode_st*> fresh;
    flatten(child, fresh);
    const std::size_t at = static_cast<std::size_t>(n - exec->nodes.data());
    if (fresh.size() != flattened_size(n->work.child)) return CUDA_ERROR_INVALID_VALUE;
    for (std::size_t i = 0; i < fresh.size(); ++i)
      if (exec->nodes[at + 1 + i].work.type != fresh[i]->work.type) return CUDA_ERROR_INVALID_VALUE;
    for (std::size_t i = 0; i < fresh.size(); ++i) {
      CUgraph embedded = exec->nodes[at + 1 + i].work.child;   // the exec's own copy stays
      exec->nodes[at + 1 + i].work = fresh[i]->work;
      exec->nodes[at + 1 + i].work.child = embedded;
    }
    return CUDA_SUCCESS;
  });
}

// The generic setter, read field by field (labbook copies the kernel parameters whole).
CUresult cuGraphExecNodeSetParams(CUgraphExec exec, CUgraphNode node, CUgraphNodeParams* params) {
  return traced(CUPTI_DRIVER_TRACE_CBID_cuGraphExecNodeSetParams, cuGraphExecNodeSetParams_params{exec, node, params},
                [&]() -> CUresult {
    CUgraphExec_st::Node* n = exec_node(exec, node);
    if (!n || n->work.type != params->type) return CUDA_ERROR_INVALID_VALUE;
    if (params->type == CU_GRAPH_NODE_TYPE_KERNEL) {
      const CUDA_KERNEL_NODE_PARAMS_v3& k = params->kernel;
      CUDA_KERNEL_NODE_PARAMS p{};
      p.func = k.func;
      p.gridDimX = k.gridDimX, p.blockDimX = k.blockDimX;
      p.kernelParams = k.kernelParams, p.extra = k.extra, p.kern = k.kern;
      return read_kernel(p, n->work);
    }
    if (params->type == CU_GRAPH_NODE_TYPE_MEMCPY) {
      n->work.copy = params->memcpy.copyParams;
      return CUDA_SUCCESS;
    }
    if (params->type == CU_GRAPH_NODE_TYPE_MEMSET) {
      const CUDA_MEMSET_NODE_PARAMS_v2& m = params->memset;
      if (m.height != n->work.set.height || m.elementSize != n->work.set.elementSize) return CUDA_ERROR_INVALID_VALUE;
      n->work.set = CUDA_MEMSET_NODE_PARAMS{m.dst, m.pitch, m.value, m.elementSize, m.width, m.height};
      return CUDA_SUCCESS;
    }
    if (params->type == CU_GRAPH_NODE_TYPE_HOST) {
      n->work.host = CUDA_HOST_NODE_PARAMS{params->host.fn, params->host.userData};
      return CUDA_SUCCESS;
    }
    if (params->type == CU_GRAPH_NODE_TYPE_EVENT_RECORD) return set_event(exec, node, params->eventRecord.event, params->type);
    if (params->type == CU_GRAPH_NODE_TYPE_WAIT_EVENT) return set_event(exec, node, params->eventWait.event, params->type);
    return CUDA_ERROR_INVALID_VALUE;
  });
}

CUresult cuGraphNodeSetEnabled(CUgraphExec exec, CUgraphNode node, unsigned int enabled) {
  return traced(CUPTI_DRIVER_TRACE_CBID_cuGraphNodeSetEnabled, cuGraphNodeSetEnabled_params{exec, node, enabled},
                [&]() -> CUresult {
    CUgraphExec_st::Node* n = exec_node(exec, node);
    if (!n || !can_disable(n->work.type) || driver().failing.count(node)) return CUDA_ERROR_INVALID_VALUE;
    n->enabled = enabled != 0;
    return CUDA_SUCCESS;
  });
}

CUresult cuGraphNodeGetEnabled(CUgraphExec exec, CUgraphNode node, unsigned int* enabled) {
  return traced(CUPTI_DRIVER_TRACE_CBID_cuGraphNodeGetEnabled, cuGraphNodeGetEnabled_params{exec, node, enabled},
                [&]() -> CUresult {
    CUgraphExec_st::Node* n = exec_node(exec, node);
    if (!n || !can_disable(n->work.type)) return CUDA_ERROR_INVALID_VALUE;
    *enabled = n->enabled ? 1 : 0;
    return CUDA_SUCCESS;
  });
}

// Pairs the update's nodes with the exec's as the documentation describes: sinks in creation
// order, then through each pair's dependencies in edge order. Parameters change, enabled
// states stay.
CUresult cuGraphExecUpdate(CUgraphExec exec, CUgraph graph, CUgraphExecUpdateResultInfo* info) {
  return traced(CUPTI_DRIVER_TRACE_CBID_cuGraphExecUpdate_v2, cuGraphExecUpdate_v2_params{exec, graph, info},
                [&]() -> CUresult {
    if (info) *info = CUgraphExecUpdateResultInfo{};
    if (!exec || !exec->alive || !graph_alive(graph) || graph->nodes.size() != exec->nodes.size())
      return CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE;
    for (const auto& n : exec->nodes)   // this model does not update child graphs
      if (n.work.type == CU_GRAPH_NODE_TYPE_GRAPH) return CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE;
    std::vector<std::vector<std::size_t>> deps;
    for (CUgraphNode_st* n : graph->nodes) deps.push_back(positions(graph, n->dependencies));
    std::vector<std::size_t> exec_sinks, graph_sinks;
    for (std::size_t i = 0; i < exec->nodes.size(); ++i) {
      bool exec_sink = true, graph_sink = true;
      for (std::size_t j = 0; j < exec->nodes.size(); ++j) {
        const auto& e = exec->nodes[j].dependencies;
        if (std::find(e.begin(), e.end(), i) != e.end()) exec_sink = false;
        if (std::find(deps[j].begin(), deps[j].end(), i) != deps[j].end()) graph_sink = false;
      }
      if (exec_sink) exec_sinks.push_back(i);
      if (graph_sink) graph_sinks.push_back(i);
    }
    if (exec_sinks.size() != graph_sinks.size()) return CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE;
    constexpr std::size_t kNone = ~std::size_t{0};
    std::vector<std::size_t> pair(exec->nodes.size(), kNone);
    std::vector<std::pair<std::size_t, std::size_t>> todo;
    for (std::size_t k = 0; k < exec_sinks.size(); ++k) todo.emplace_back(exec_sinks[k], graph_sinks[k]);
    while (!todo.empty()) {
      const auto [o, n] = todo.back();
      todo.pop_back();
      if (pair[o] != kNone) {
        if (pair[o] != n) return CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE;
        continue;
      }
      pair[o] = n;
      const auto& od = exec->nodes[o].dependencies;
      if (od.size() != deps[n].size() || exec->nodes[o].work.type != graph->nodes[n]->work.type)
        return CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE;
      for (std::size_t j = 0; j < od.size(); ++j) todo.emplace_back(od[j], deps[n][j]);
    }
    for (std::size_t o = 0; o < exec->nodes.size(); ++o) {
      exec->nodes[o].work = graph->nodes[pair[o]]->work;
      exec->nodes[o].updated_from = graph->nodes[pair[o]];
    }
    return CUDA_SUCCESS;
  });
}

CUresult cuGraphLaunch(CUgraphExec exec, CUstream stream) {
  return traced(CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch, cuGraphLaunch_params{exec, stream}, [&]() -> CUresult {
    if (!exec || !exec->alive) return CUDA_ERROR_INVALID_VALUE;
    if (driver().capturing.count(stream)) return CUDA_SUCCESS;   // captured: runs later, as a child graph
    for (const auto& n : exec->nodes) {
      if (!n.enabled || n.work.type == CU_GRAPH_NODE_TYPE_EMPTY || n.work.type == CU_GRAPH_NODE_TYPE_GRAPH) continue;
      const std::size_t before = driver().work.size();
      log(n.work, stream);
      if (n.work.type != CU_GRAPH_NODE_TYPE_HOST) driver().work_by_graph_launches += driver().work.size() - before;
    }
    return CUDA_SUCCESS;
  });
}

CUresult cuGraphExecDestroy(CUgraphExec exec) {
  return traced(CUPTI_DRIVER_TRACE_CBID_cuGraphExecDestroy, cuGraphExecDestroy_params{exec}, [&]() -> CUresult {
    exec->alive = false;
    return CUDA_SUCCESS;
  });
}

CUresult cuGraphDestroy(CUgraph graph) {
  return traced(CUPTI_DRIVER_TRACE_CBID_cuGraphDestroy, cuGraphDestroy_params{graph}, [&]() -> CUresult {
    graph->alive = false;
    return CUDA_SUCCESS;
  });
}

CUresult cuGraphNodeGetDependencies(CUgraphNode node, CUgraphNode* dependencies, CUgraphEdgeData*, std::size_t* count) {
  if (!node_alive(node)) return CUDA_ERROR_INVALID_VALUE;
  if (dependencies) std::copy_n(node->dependencies.begin(), std::min(*count, node->dependencies.size()), dependencies);
  *count = node->dependencies.size();
  return CUDA_SUCCESS;
}

CUresult cuLaunchKernelEx(const CUlaunchConfig* config, CUfunction f, void** arguments, void** extra) {
  if (extra) return CUDA_ERROR_INVALID_VALUE;
  CUDA_KERNEL_NODE_PARAMS p{};
  p.func = f;
  p.gridDimX = config->gridDimX;
  p.blockDimX = config->blockDimX;
  p.kernelParams = arguments;
  Work w;
  if (CUresult r = read_kernel(p, w); r != CUDA_SUCCESS) return r;
  log(w, config->hStream);
  return CUDA_SUCCESS;
}

CUresult cuLaunchHostFunc(CUstream, CUhostFn fn, void* data) {
  fn(data);
  return CUDA_SUCCESS;
}

CUresult cuEventRecord(CUevent event, CUstream stream) {
  Work w = of_type(CU_GRAPH_NODE_TYPE_EVENT_RECORD);
  w.event = event;
  log(w, stream);
  return CUDA_SUCCESS;
}

CUresult cuStreamWaitEvent(CUstream stream, CUevent event, unsigned int) {
  Work w = of_type(CU_GRAPH_NODE_TYPE_WAIT_EVENT);
  w.event = event;
  log(w, stream);
  return CUDA_SUCCESS;
}

CUresult cuMemcpy3DAsync(const CUDA_MEMCPY3D* copy, CUstream stream) {
  Work w = of_type(CU_GRAPH_NODE_TYPE_MEMCPY);
  w.copy = *copy;
  log(w, stream);
  return CUDA_SUCCESS;
}

CUresult cuMemsetD8Async(CUdeviceptr d, unsigned char v, std::size_t n, CUstream s) { return record_memset(d, 0, v, 1, n, 1, s); }
CUresult cuMemsetD16Async(CUdeviceptr d, unsigned short v, std::size_t n, CUstream s) { return record_memset(d, 0, v, 2, n, 1, s); }
CUresult cuMemsetD32Async(CUdeviceptr d, unsigned int v, std::size_t n, CUstream s) { return record_memset(d, 0, v, 4, n, 1, s); }
CUresult cuMemsetD2D8Async(CUdeviceptr d, std::size_t p, unsigned char v, std::size_t w, std::size_t h, CUstream s) {
  return record_memset(d, p, v, 1, w, h, s);
}
CUresult cuMemsetD2D16Async(CUdeviceptr d, std::size_t p, unsigned short v, std::size_t w, std::size_t h, CUstream s) {
  return record_memset(d, p, v, 2, w, h, s);
}
CUresult cuMemsetD2D32Async(CUdeviceptr d, std::size_t p, unsigned int v, std::size_t w, std::size_t h, CUstream s) {
  return record_memset(d, p, v, 4, w, h, s);
}

}  // extern "C"
