#pragma once
/// @file
/// A launch the filter chose, handed to the range profiler with what it needs around the
/// kernel: L2 flushed just before it, and a way to launch it again for kernel replay's passes.
#include <cstdint>

#include <cupti.h>

namespace labbook::profiler {

class IssueLog;
class L2Flusher;
class RangeProfiler;

/// Profiles the launch that driver callback `d` (call `cbid`, on `device`) is entering, as
/// launch `index`; `flusher` null where L2 is left as it is.
void profile_launch(RangeProfiler& profiler, L2Flusher* flusher, IssueLog& issues, CUpti_CallbackId cbid,
                    const CUpti_CallbackData& d, int device, std::uint64_t index);

}  // namespace labbook::profiler
