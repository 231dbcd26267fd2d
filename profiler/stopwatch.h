#pragma once
/// @file
/// Seconds since a moment on the steady clock: the collector's overhead figures
/// (LABBOOK_VERBOSE) are all measured this way.
#include <chrono>

namespace labbook::profiler {

inline double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace labbook::profiler
