#pragma once
/// @file
/// A failed CUDA driver call as readable text: "cuCtxCreate failed (CUDA_ERROR_OUT_OF_MEMORY)".
#include <string>

#include <cuda.h>

namespace labbook::profiler {

inline std::string describe_driver_call(const char* call, CUresult result) {
  const char* name = nullptr;
  cuGetErrorName(result, &name);
  return std::string(call) + " failed (" + (name ? name : std::to_string(static_cast<int>(result))) + ")";
}

}  // namespace labbook::profiler
