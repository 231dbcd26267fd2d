#pragma once
/// @file
/// Seconds since a moment on the steady clock, and the process's peak resident memory: the
/// collector's overhead figures (LABBOOK_VERBOSE) are all measured this way.
#include <chrono>
#include <fstream>
#include <string>

namespace labbook::profiler {

inline double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

/// Adds the seconds from its making to its end to `total`: a scope's time, on every return path.
class ScopeSeconds {
 public:
  explicit ScopeSeconds(double& total) : total_(total), start_(std::chrono::steady_clock::now()) {}
  ~ScopeSeconds() { total_ += seconds_since(start_); }
  ScopeSeconds(const ScopeSeconds&) = delete;
  ScopeSeconds& operator=(const ScopeSeconds&) = delete;

 private:
  double& total_;
  std::chrono::steady_clock::time_point start_;
};

/// The process's peak resident memory so far (VmHWM), in MB; 0 where /proc does not say.
inline double peak_resident_mb() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);)
    if (line.rfind("VmHWM:", 0) == 0) return std::stod(line.substr(6)) / 1024.0;
  return 0;
}

}  // namespace labbook::profiler
