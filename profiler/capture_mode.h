#pragma once
/// @file
/// The calling thread's stream-capture mode, relaxed for a scope while labbook makes driver
/// calls that may run beside a program's capture (the L2 flusher's preparation, on a thread of
/// its own). Under a program's global-mode capture (cudaStreamCaptureModeGlobal, the default),
/// a "potentially unsafe" call from any thread (an allocation, a context) fails and invalidates
/// that capture; labbook's calls never touch the captured streams, so relaxed mode lets them
/// run beside it and leaves the program's capture whole.
#include <cuda.h>

namespace labbook::profiler {

class RelaxedCaptureMode {
 public:
  RelaxedCaptureMode() { cuThreadExchangeStreamCaptureMode(&previous_); }
  ~RelaxedCaptureMode() { cuThreadExchangeStreamCaptureMode(&previous_); }
  RelaxedCaptureMode(const RelaxedCaptureMode&) = delete;
  RelaxedCaptureMode& operator=(const RelaxedCaptureMode&) = delete;

 private:
  CUstreamCaptureMode previous_ = CU_STREAM_CAPTURE_MODE_RELAXED;   // the thread's own, once exchanged
};

}  // namespace labbook::profiler
