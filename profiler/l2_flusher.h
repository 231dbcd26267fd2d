#pragma once
/// @file
/// L2Flusher: empties the GPU's L2 of the program's data before a profiled kernel, as
/// `ncu --cache-control all` does, so that DRAM bytes, L2 hit rates and times describe a
/// kernel that starts cold rather than whatever earlier work (or replay) left in L2.
///
/// CUDA offers no call that invalidates L2, so by default the flusher writes a buffer of
/// twice the L2 size, which pushes every line the program left out of L2 (dirty ones written
/// back now, not during the kernel), then discards the buffer's own lines (PTX
/// discard.global.L2: invalidated, never written back). Its kernels run in a context of their own, so that
/// CUPTI's range profiler on the program's context never counts them.
#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <cuda.h>

#include "flush_passes.h"

namespace labbook::profiler {

class L2Flusher {
 public:
  explicit L2Flusher(std::vector<FlushPass> passes = {FlushPass::Write, FlushPass::Discard});
  ~L2Flusher();
  L2Flusher(const L2Flusher&) = delete;
  L2Flusher& operator=(const L2Flusher&) = delete;

  /// Flushes the L2 of `device` and waits for it. Returns "" or what went wrong (the
  /// caller records it once as an issue). Call from the launch callback, before the launch.
  std::string flush(int device);

  /// True while the calling thread is inside flush(): the collector ignores its own launch.
  static bool in_flush();

  /// For the collector's overhead report: flushes so far, and seconds spent in them and in
  /// preparing (a context, the flush kernel, a buffer twice the L2) before the first.
  struct Stats {
    int flushes = 0;
    double flush_seconds = 0, prepare_seconds = 0;
  };
  Stats stats() const;

 private:
  struct Device;
  std::string prepare(int device, Device& d);

  std::vector<FlushPass> passes_;
  mutable std::mutex mutex_;
  std::map<int, std::unique_ptr<Device>> devices_;
  Stats stats_;
};

}  // namespace labbook::profiler
