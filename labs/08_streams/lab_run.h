#pragma once
// What every experiment of lab 8 shares: the options, the --only selection and the closing
// table, host clocks, and the spinning kernels' tags.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <string>
#include <vector>

#include "cuda_check.h"
#include "device_buffer.h"
#include "experiment_log.h"
#include "host_timer.h"
#include "median.h"

namespace labbook::lab {

struct Options {
  int repeat = 3;                   // runs after the first; every run rewrites the same outputs, checked after the last
  std::string only;                 // run only experiments whose range path contains this
  std::size_t elements = 1u << 22;  // 32-bit words per array of a task: 16 MiB each way
  std::uint32_t rounds = 1024;      // dependent multiply-adds per element: a kernel about as long as its two copies
  unsigned tasks = 8;               // independent upload-kernel-download tasks of the pipeline
  unsigned spin_ms = 10;            // length of a spinning kernel
  unsigned pairs = 512;             // event pairs of the timer-resolution experiment
  unsigned max_streams = 256;       // the concurrency sweep goes 1, 2, 4, ... up to this (past 128 grids)
  unsigned connections = 0;         // CUDA_DEVICE_MAX_CONNECTIONS to set (0: the driver's default)
  std::uint64_t seed = 8;
};

class LabRun {
 public:
  explicit LabRun(const Options& o) : opt(o), log_(o.only, 1 + o.repeat) {}

  const Options opt;

  bool selected(const std::string& path) const { return log_.selected(path); }
  /// True when some of `paths` is selected: a group range is opened only then.
  bool any_selected(const std::vector<std::string>& paths) const {
    return std::any_of(paths.begin(), paths.end(), [&](const std::string& p) { return selected(p); });
  }
  void record(const std::string& path, double ms, bool correct) { log_.record(path, static_cast<float>(ms), correct); }
  int finish() const { return log_.report(); }

  std::uint64_t spin_ns() const { return static_cast<std::uint64_t>(opt.spin_ms) * 1000000u; }

 private:
  ExperimentLog log_;
};

/// Wall-clock nanoseconds since an arbitrary start.
inline double wall_ns() {
  return static_cast<double>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count());
}

/// CPU time the calling thread has used, in nanoseconds (not the process's: the collector's
/// threads would count too).
inline double thread_cpu_ns() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e9 + static_cast<double>(t.tv_nsec);
}

/// Milliseconds the host waited for `work` and the whole device after it.
template <typename Work>
double device_wall_ms(Work&& work) {
  const double start = wall_ns();
  work();
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
  return (wall_ns() - start) / 1e6;
}

/// Slots the spinning kernels write their tags into: poisoned (all bits set) before a run,
/// then every slot must hold the tag its kernel was given.
class Tags {
 public:
  explicit Tags(std::size_t slots) : device_(slots), want_(slots, 0xFFFFFFFFu) { device_.poison(); }
  std::uint32_t* get() const { return device_.get(); }
  /// Expects `tag` in `slot` (a tag must not be the poison).
  void expect(std::size_t slot, std::uint32_t tag) { want_.at(slot) = tag; }
  /// True when every slot holds what was expected; says which one did not on stderr.
  bool right(const std::string& what) const {
    std::vector<std::uint32_t> got;
    device_.download(got);
    for (std::size_t i = 0; i < got.size(); ++i)
      if (got[i] != want_[i]) {
        std::fprintf(stderr, "%s: tag %zu is %u, expected %u\n", what.c_str(), i, got[i], want_[i]);
        return false;
      }
    return true;
  }

 private:
  DeviceBuffer<std::uint32_t> device_;
  std::vector<std::uint32_t> want_;
};

}  // namespace labbook::lab
