#pragma once
/// @file
/// Which CUPTI callbacks a run of the collector turns on, from what it collects; each through
/// CallbackSwitches, so that one refused becomes an issue naming what the run misses.
#include "callback_switches.h"

namespace labbook::profiler {

/// What a run collects, as far as its callbacks go.
struct CollectedParts {
  bool trace = false;      ///< the Activity API timeline: unified memory's calls too
  bool source = false;     ///< per-instruction counts: module loads
  bool flush_l2 = false;   ///< metrics with L2 flushed: context creation, to make the flusher early
};

/// Every run: NVTX, the runtime, the driver's launches, captures and GPU work, changes to
/// executable graphs and contexts' teardown; then what `parts` adds.
void subscribe(CallbackSwitches& on, const CollectedParts& parts);

}  // namespace labbook::profiler
