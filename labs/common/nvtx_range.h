#pragma once
// NvtxRange: one NVTX push/pop range for the lifetime of a scope. Nested ranges give
// paths such as "readSegment/offset=11" in the profiler; a range may carry a number.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include <nvtx3/nvToolsExt.h>

namespace labbook::lab {

class NvtxRange {
 public:
  explicit NvtxRange(const std::string& name) { nvtxRangePushA(name.c_str()); }
  /// A range carrying a number the program found (a pitch, a timer's resolution): the sheet
  /// reads it as the quantity payload, payload_bytes or payload_ns.
  NvtxRange(const std::string& name, double payload) {
    nvtxEventAttributes_t attributes{};
    attributes.version = NVTX_VERSION;
    attributes.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    attributes.messageType = NVTX_MESSAGE_TYPE_ASCII;
    attributes.message.ascii = name.c_str();
    attributes.payloadType = NVTX_PAYLOAD_TYPE_DOUBLE;
    attributes.payload.dValue = payload;
    nvtxRangePushEx(&attributes);
  }
  ~NvtxRange() { nvtxRangePop(); }
  NvtxRange(const NvtxRange&) = delete;
  NvtxRange& operator=(const NvtxRange&) = delete;
};

/// One range per part of a path such as "reverse/fast/n=262144", innermost last, so that
/// the profiler sees the whole path. With a payload, the innermost range carries it.
class NvtxPath {
 public:
  explicit NvtxPath(const std::string& path) { open(path, nullptr); }
  NvtxPath(const std::string& path, double payload) { open(path, &payload); }
  ~NvtxPath() {
    while (!ranges_.empty()) ranges_.pop_back();   // innermost first
  }
  NvtxPath(const NvtxPath&) = delete;
  NvtxPath& operator=(const NvtxPath&) = delete;

 private:
  void open(const std::string& path, const double* payload) {
    std::size_t begin = 0;
    while (begin <= path.size()) {
      const std::size_t end = std::min(path.find('/', begin), path.size());
      const std::string part = path.substr(begin, end - begin);
      ranges_.push_back(payload && end == path.size() ? std::make_unique<NvtxRange>(part, *payload)
                                                      : std::make_unique<NvtxRange>(part));
      begin = end + 1;
    }
  }

  std::vector<std::unique_ptr<NvtxRange>> ranges_;
};

}  // namespace labbook::lab
