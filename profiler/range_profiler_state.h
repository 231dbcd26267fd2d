#pragma once
/// @file
/// The range profiler's private state, shared by its four files: range_profiler.cpp (contexts,
/// batches and passes), range_profiler_host.cpp (the config image and pass plan),
/// range_profiler_replay.cpp (kernel replay's earlier passes) and range_profiler_batches.cpp (a
/// batch's counters evaluated, or carried to the next run).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <cupti_profiler_host.h>
#include <cupti_range_profiler.h>

#include "device_checkpoint.h"
#include "range_profiler.h"

namespace labbook::profiler {

// Said wherever CUPTI refuses the counters for want of privileges.
inline constexpr const char* kDeniedHow =
    "GPU performance counters are restricted to administrators on this machine "
    "(CUPTI_ERROR_INSUFFICIENT_PRIVILEGES). Timings and the timeline were still recorded. "
    "To allow counters, run as root, or add 'options nvidia NVreg_RestrictProfilingToAdminUsers=0' "
    "to a file in /etc/modprobe.d/ and reboot "
    "(https://developer.nvidia.com/CUPTI_ERROR_INSUFFICIENT_PRIVILEGES).";

struct RangeProfiler::HostConfig {
  // Held while the host object lives: CUPTI reads it after the call that took it (a probe
  // that freed it first crashed in libnvperf_host making the config image; H200, CUDA 13.0).
  std::vector<std::uint8_t> availability;
  CUpti_Profiler_Host_Object* host = nullptr;
  std::vector<std::uint8_t> config_image;
  std::string chip;
};

struct RangeProfiler::Context {
  struct Launch {
    std::uint64_t index;
    std::string kernel;                 // mangled name
  };
  CUcontext ctx = nullptr;
  std::string name;                     // device, then the n-th context profiled on it: the same in every run
  int batch = -1;                       // batches configured so far - 1, the same in every run
  CUpti_RangeProfiler_Object* object = nullptr;
  std::vector<std::uint8_t> counter_data;
  std::vector<Launch> pending;          // this batch's launches, in launch order
  std::vector<std::string> carried_kernels;   // the batch's kernels in the run that collected the passes before
  bool running = false;                 // between Start and Stop; then pending is not empty
  std::size_t first_batch = 0;          // its launches, in a run of several passes
  std::size_t left_out = 0;             // the launches after it
  std::unique_ptr<DeviceCheckpoint> checkpoint;   // kernel replay of a set of several passes
};

}  // namespace labbook::profiler
