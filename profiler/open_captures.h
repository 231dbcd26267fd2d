#pragma once
/// @file
/// Which streams of which contexts are being captured into a graph right now, from the
/// driver's begin- and end-capture calls. While a capture is open, a launch by another thread
/// into another stream is legal, but CUPTI's range profiler cannot start around it: its set-up
/// synchronizes, which fails (CUPTI_ERROR_UNKNOWN on the H100) and invalidates the other
/// thread's capture. The collector lets such launches run unprofiled and says so, in every
/// context: a global-mode capture restricts every thread of the process, and whether CUPTI's
/// set-up in one context disturbs a capture in another was never tried. No CUDA or
/// CUPTI calls here, so the bookkeeping is tested without a GPU: contexts and streams are the
/// driver's handles (CUcontext, CUstream), kept as the pointers they are.
#include <map>
#include <mutex>
#include <set>

namespace labbook::profiler {

class OpenCaptures {
 public:
  using Handle = const void*;
  /// A capture on `stream` began (call after the driver's call succeeded).
  void began(Handle context, Handle stream);
  /// The program ended the capture on `stream`, whether or not that succeeded: the stream no
  /// longer captures. A stream that was not capturing changes nothing.
  void ended(Handle context, Handle stream);
  /// Whether any stream, of any context, is being captured.
  bool any() const;

 private:
  mutable std::mutex mutex_;
  // Streams by context; a multiset, as two threads' per-thread streams share one handle.
  std::map<Handle, std::multiset<Handle>> open_;
};

}  // namespace labbook::profiler
