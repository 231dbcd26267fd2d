#pragma once
/// @file
/// CUPTI result codes to readable text and to labbook issues.
#include <cstddef>
#include <string>

#include <cupti.h>

namespace labbook::profiler {

/// "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES: <CUPTI's message>".
std::string describe(CUptiResult status);

/// "cuptiRangeProfilerEnable: CUPTI_ERROR_...: ..." for a failed call.
std::string describe_call(const char* call, CUptiResult status);

/// True for the results that mean "counters are restricted to administrators".
bool is_permission_error(CUptiResult status);

/// A CUPTI params struct, zeroed, with structSize set as the headers in use define it.
template <typename Params>
Params cupti_params(std::size_t size) {
  Params p{};
  p.structSize = size;
  return p;
}
#define LABBOOK_PARAMS(T) ::labbook::profiler::cupti_params<T>(T##_STRUCT_SIZE)

}  // namespace labbook::profiler
