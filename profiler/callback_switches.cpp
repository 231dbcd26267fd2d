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
  check(enable_domain_(1, subscriber_, domain), "cuptiEnableDomain", std::string(domain_name(domain)) + " callbacks", missed);
}

void CallbackSwitches::callback(CUpti_CallbackDomain domain, CUpti_CallbackId id, const char* missed) {
  check(enable_callback_(1, subscriber_, domain, id), "cuptiEnableCallback",
        std::string(domain_name(domain)) + " callback " + std::to_string(id), missed);
}

void CallbackSwitches::check(CUptiResult status, const char* call, const std::string& what, const char* missed) {
  if (status == CUPTI_SUCCESS) return;
  ++failures_;
  issues_.add("callback_not_enabled", describe_call(call, status) + " (" + what + "): " + missed);
}

}  // namespace labbook::profiler
