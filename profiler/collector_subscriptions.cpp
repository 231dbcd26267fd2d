#include "collector_subscriptions.h"

#include "driver_callbacks.h"
#include "graph_exec_calls.h"

namespace labbook::profiler {

void subscribe(CallbackSwitches& on, const CollectedParts& parts) {
  on.domain(CUPTI_CB_DOMAIN_NVTX, "NVTX ranges are not recorded");
  on.domain(CUPTI_CB_DOMAIN_RUNTIME_API, "copies lose the NVTX range of the runtime call that made them");
  for (const DriverCallback& call : driver_callbacks())
    if (call.role != DriverCallRole::kManagedMemory)
      on.callback(CUPTI_CB_DOMAIN_DRIVER_API, call.id, "launches through this driver call are not recorded or profiled");
  for (CUpti_CallbackId cbid : graph_exec_calls())
    on.callback(CUPTI_CB_DOMAIN_DRIVER_API, cbid, "changes to executable graphs are not followed");
  on.callback(CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING,
              "metrics and source counts of a context destroyed before the program ends are lost");
  if (parts.source) on.callback(CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_MODULE_LOADED, "no source line is counted");
  if (parts.trace)
    for (const DriverCallback& call : driver_callbacks())
      if (call.role == DriverCallRole::kManagedMemory)
        on.callback(CUPTI_CB_DOMAIN_DRIVER_API, call.id, "unified memory's page faults and migrations are not traced");
  if (parts.flush_l2)
    on.callback(CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_CONTEXT_CREATED,
                "the L2 flusher is made at the first profiled kernel, inside the program's time");
}

}  // namespace labbook::profiler
