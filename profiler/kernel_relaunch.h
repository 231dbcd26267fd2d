#pragma once
/// @file
/// Launches again the kernel that a driver launch call (seen by a CUPTI callback at its entry)
/// is about to launch, with the same function, geometry, stream and arguments: labbook's
/// kernel replay runs a kernel's earlier counter passes this way, the program's own launch
/// being the last (range_profiler.h).
#include <string>

#include <cupti.h>

namespace labbook::profiler {

/// Launches the kernel of launch call `cbid` whose parameters are `params` (the callback's
/// functionParams, valid during the call). Returns "" or what failed. The caller keeps its
/// own callbacks from counting this launch as the program's (RelaunchGuard).
std::string relaunch_kernel(CUpti_CallbackId cbid, const void* params);

/// Loads the module of the kernel that launch call `cbid` names, where lazy loading (CUDA's
/// default) has not yet: a module's __device__ variables are made when it loads, and must be
/// in the memory kernel replay saves before the kernel first runs. Returns "" or what failed.
std::string load_kernel(CUpti_CallbackId cbid, const void* params);

/// True on a thread while it relaunches a kernel: the collector's launch callback, which
/// the relaunch calls again, ignores that call.
bool relaunching();

/// Marks the current thread as relaunching for its lifetime.
class RelaunchGuard {
 public:
  RelaunchGuard();
  ~RelaunchGuard();
  RelaunchGuard(const RelaunchGuard&) = delete;
  RelaunchGuard& operator=(const RelaunchGuard&) = delete;
};

}  // namespace labbook::profiler
