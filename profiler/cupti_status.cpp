#include "cupti_status.h"

namespace labbook::profiler {

std::string describe(CUptiResult status) {
  const char* name = nullptr;
  const char* message = nullptr;
  if (cuptiGetResultString(status, &name) != CUPTI_SUCCESS || !name) name = "CUPTI_ERROR_?";
  std::string text = name;
  if (cuptiGetErrorMessage(status, &message) == CUPTI_SUCCESS && message && *message)
    text += std::string(": ") + message;
  return text;
}

std::string describe_call(const char* call, CUptiResult status) {
  return std::string(call) + " failed: " + describe(status);
}

bool is_permission_error(CUptiResult status) {
  return status == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES ||
         status == CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES;
}

}  // namespace labbook::profiler
