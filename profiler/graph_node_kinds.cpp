#include "graph_node_kinds.h"

namespace labbook::profiler {

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

bool can_disable(CUgraphNodeType type) {
  return type == CU_GRAPH_NODE_TYPE_KERNEL || type == CU_GRAPH_NODE_TYPE_MEMCPY || type == CU_GRAPH_NODE_TYPE_MEMSET;
}

bool silenced(CUgraphNodeType type) {
  return can_disable(type) || type == CU_GRAPH_NODE_TYPE_HOST || type == CU_GRAPH_NODE_TYPE_EVENT_RECORD ||
         type == CU_GRAPH_NODE_TYPE_WAIT_EVENT;
}

const char* silencing_call(CUgraphNodeType type) {
  switch (type) {
    case CU_GRAPH_NODE_TYPE_HOST: return "cuGraphExecHostNodeSetParams";
    case CU_GRAPH_NODE_TYPE_EVENT_RECORD: return "cuGraphExecEventRecordNodeSetEvent";
    case CU_GRAPH_NODE_TYPE_WAIT_EVENT: return "cuGraphExecEventWaitNodeSetEvent";
    default: return "cuGraphNodeSetEnabled";
  }
}

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

}  // namespace labbook::profiler
