// Entry point the CUDA driver looks up in the collector library during cuInit when
// CUDA_INJECTION64_PATH names it. NVTX_INJECTION64_PATH names libcupti itself, which
// then reports NVTX calls to the collector as callbacks (a forwarding
// InitializeInjectionNvtx2 in this library received none on CUPTI 13.0).
// No exception may cross this function into the profiled program.
#include <cstdio>
#include <cstdlib>
#include <exception>

#include "collector.h"
#include "fatal_signals.h"

extern "C" __attribute__((visibility("default"))) int InitializeInjection(void) {
  try {
    if (!labbook::profiler::start_collector(labbook::profiler::CollectorConfig::from_environment()))
      return 0;
    // exit() and a return from main both end here; signals in fatal_signals.cpp.
    std::atexit([] { labbook::profiler::finish_collector("exit"); });
    labbook::profiler::write_measurement_on_fatal_signals();
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "labbook collector: not started: %s\n", e.what());
    return 0;
  }
}
