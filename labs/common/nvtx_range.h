#pragma once
// NvtxRange: one NVTX push/pop range for the lifetime of a scope. Nested ranges give
// paths such as "readSegment/offset=11" in the profiler.
#include <string>

#include <nvtx3/nvToolsExt.h>

namespace labbook::lab {

class NvtxRange {
 public:
  explicit NvtxRange(const std::string& name) { nvtxRangePushA(name.c_str()); }
  ~NvtxRange() { nvtxRangePop(); }
  NvtxRange(const NvtxRange&) = delete;
  NvtxRange& operator=(const NvtxRange&) = delete;
};

}  // namespace labbook::lab
