#include "callback_switches.h"

#include <string>

#include "cupti_status.h"

namespace labbook::profiler {

namespace {
const char* domain_name(CUpti_CallbackDomain domain) {
  switch (domain) {
    case CUPTI_CB_DOMAIN_DRIVER_API: return "driver API";
    case CUPTI_CB_DOMAIN_RUNTIME_API: return "runtime API";
    case CUPTI_CB_DOMAIN_RESOURCE: return "resource";
    case CUPTI_CB_DOMAIN_NVTX: return "NVTX";
    default: return "other";
  }
}
}  // namespace

void CallbackSwitches::domain(CUpti_CallbackDomain domain, const char* missed) {
  if (const CUptiResult s = enable_domain_(1, subscriber_, domain); s != CUPTI_SUCCESS) {
    ++failures_;
    issues_.add("callback_not_enabled", describe_call("cuptiEnableDomain", s) + " (" + domain_name(domain) +
                                            " callbacks): " + missed);
  }
}

void CallbackSwitches::callback(CUpti_CallbackDomain domain, CUpti_CallbackId id, const char* missed) {
  if (const CUptiResult s = enable_callback_(1, subscriber_, domain, id); s != CUPTI_SUCCESS) {
    ++failures_;
    issues_.add("callback_not_enabled", describe_call("cuptiEnableCallback", s) + " (" + domain_name(domain) +
                                            " callback " + std::to_string(id) + "): " + missed);
  }
}

}  // namespace labbook::profiler
