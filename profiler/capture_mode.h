#pragma once
/// @file
/// The calling thread's stream-capture mode, relaxed while labbook makes driver and CUPTI calls
/// on a program's behalf. Under a program's global-mode capture (cudaStreamCaptureModeGlobal,
/// the default), a "potentially unsafe" call from any thread (an allocation, a context, a
/// synchronize) fails and invalidates that capture; labbook's calls never touch the captured
/// streams, so relaxed mode lets them run beside it and leaves the program's capture whole.
#include <cuda.h>

namespace labbook::profiler {

/// Makes the calling thread's mode relaxed; returns the mode it had, for restore_capture_mode.
inline CUstreamCaptureMode relax_capture_mode() {
  CUstreamCaptureMode previous = CU_STREAM_CAPTURE_MODE_RELAXED;
  cuThreadExchangeStreamCaptureMode(&previous);
  return previous;
}

inline void restore_capture_mode(CUstreamCaptureMode previous) { cuThreadExchangeStreamCaptureMode(&previous); }

/// Relaxed for a scope.
class RelaxedCaptureMode {
 public:
  RelaxedCaptureMode() : previous_(relax_capture_mode()) {}
  ~RelaxedCaptureMode() { restore_capture_mode(previous_); }
  RelaxedCaptureMode(const RelaxedCaptureMode&) = delete;
  RelaxedCaptureMode& operator=(const RelaxedCaptureMode&) = delete;

 private:
  CUstreamCaptureMode previous_;
};

}  // namespace labbook::profiler
