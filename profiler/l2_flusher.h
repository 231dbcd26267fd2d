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

struct ProfilerOverhead;

class L2Flusher {
 public:
  explicit L2Flusher(std::vector<FlushPass> passes = {FlushPass::Write, FlushPass::Discard});
  ~L2Flusher();
  L2Flusher(const L2Flusher&) = delete;
  L2Flusher& operator=(const L2Flusher&) = delete;

  /// Starts preparing `device` (a context, the flush kernel, a buffer twice the L2: about
  /// 0.13 s on the H100) on a thread of its own, so that it overlaps the program's own set-up
  /// instead of delaying its first profiled kernel. Call when the program's context appears.
  void prepare_soon(int device);

  /// Waits for preparations still running. Call before the program exits.
  void settle();

  /// Flushes the L2 of `device` and waits for it, preparing the device first (or waiting for
  /// prepare_soon's preparation). Returns "" or what went wrong (the caller records it once as
  /// an issue). Call from the launch callback, before the launch; the collector profiles no
  /// launch while a stream capture is open (open_captures.h), so none is open here.
  std::string flush(int device);

  /// True while the calling thread is inside flush() or preparing a device: the collector
  /// ignores the flusher's own launches and context.
  static bool in_flush();

  /// For the collector's overhead report (LABBOOK_VERBOSE), into `costs`: flushes so far,
  /// seconds spent in them, in preparing (a context, the flush kernel, a buffer twice the L2;
  /// on a thread of its own after prepare_soon), and how long launches waited for a
  /// preparation (all of it without prepare_soon).
  void add_costs(ProfilerOverhead& costs) const;

 private:
  struct Stats {
    int flushes = 0;
    double flush_seconds = 0, prepare_seconds = 0, waited_seconds = 0;
  };
  struct Device;
  std::string prepare(int device, Device& d);
  void prepare_timed(int device, Device& d);

  std::vector<FlushPass> passes_;
  // flush_mutex_ keeps flushes one at a time, across their CUDA calls; devices_mutex_ guards
  // the map only, briefly, so that prepare_soon (from a CUPTI callback inside the driver) and
  // settle (at exit, perhaps from a signal handler) never wait for a flush.
  std::mutex flush_mutex_, devices_mutex_;
  std::map<int, std::unique_ptr<Device>> devices_;
  mutable std::mutex stats_mutex_;
  Stats stats_;
};

}  // namespace labbook::profiler
