#pragma once
/// @file
/// An NVTX callback's parameters read into NvtxTracker events: which range call it was, its
/// message and its payload, whatever their NVTX types. Reads CUPTI's callback data and calls
/// no CUPTI function, so tests drive it with made-up calls.
#include <cstdint>

#include <cupti.h>

#include "nvtx_tracker.h"

namespace labbook::profiler {

/// The clock an event is stamped with when it is recorded (the collector's: CUPTI's).
using TimestampClock = std::uint64_t (*)();

/// Records NVTX call `cbid`, made on `thread`, in `nvtx`; calls other than ranges' are ignored.
void record_nvtx_call(NvtxTracker& nvtx, CUpti_CallbackId cbid, const CUpti_NvtxData& call, std::uint32_t thread,
                      TimestampClock now);

}  // namespace labbook::profiler
