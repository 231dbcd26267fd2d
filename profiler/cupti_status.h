#pragma once
/// @file
/// CUPTI result codes to readable text and to labbook issues.
#include <string>

#include <cupti.h>

namespace labbook::profiler {

/// "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES: <CUPTI's message>".
std::string describe(CUptiResult status);

/// "cuptiRangeProfilerEnable: CUPTI_ERROR_...: ..." for a failed call.
std::string describe_call(const char* call, CUptiResult status);

/// True for the results that mean "counters are restricted to administrators".
bool is_permission_error(CUptiResult status);

}  // namespace labbook::profiler
