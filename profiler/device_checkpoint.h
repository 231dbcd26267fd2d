#pragma once
/// @file
/// DeviceCheckpoint: a context's memory (device, pinned and allocated host memory) saved and
/// put back, through CUPTI's checkpoint API (cupti_checkpoint.h). labbook's kernel replay
/// saves before a kernel's first counter pass and restores before each later one, so that
/// every pass, the program's own launch last, starts from the memory the program left
/// (range_profiler.h). save() waits for the context's work first. The copy is kept, saved over
/// at each kernel, until the context ends: CUPTI may hold it in GPU memory (freeing it after
/// each kernel is not yet tried on a GPU). libcheckpoint is loaded on first use, so that runs
/// without kernel replay never need it.
#include <memory>
#include <string>

#include <cuda.h>

namespace labbook::profiler {

class DeviceCheckpoint {
 public:
  explicit DeviceCheckpoint(CUcontext ctx);
  ~DeviceCheckpoint();   // frees what was saved
  DeviceCheckpoint(const DeviceCheckpoint&) = delete;
  DeviceCheckpoint& operator=(const DeviceCheckpoint&) = delete;

  /// Saves the context's memory, over what an earlier save() kept. "" or what failed.
  std::string save();
  /// Puts back what save() kept. "" or what failed.
  std::string restore();
  /// Seconds spent in save() and restore() so far.
  double seconds() const { return seconds_; }

 private:
  struct Handle;
  std::unique_ptr<Handle> handle_;
  bool saved_ = false;
  double seconds_ = 0;
};

}  // namespace labbook::profiler
