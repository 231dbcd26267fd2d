#pragma once
/// @file
/// The runtime calls that launch a kernel, whose records the collector makes from its own
/// callbacks (they fire at those calls anyway) with CUPTI's records of them turned off: at
/// 10^5 launches CUPTI's records of them cost about 0.07 s (H200). CUPTI's switch is passed
/// in, so that a test can refuse it.
#include <cstdint>

#include <cupti.h>

namespace labbook::profiler {

using EnableRuntimeApi = CUptiResult (*)(CUpti_CallbackId, std::uint8_t);

/// True for a runtime call that launches a kernel (cudaLaunchHostFunc runs host work: no).
bool launches_a_kernel(CUpti_CallbackId runtime_cbid);

/// Turns CUPTI's records of the kernel-launching calls off, after the runtime kind was
/// enabled (which turns them all on). True where CUPTI took every one; where it refused one,
/// all are turned back on, so that no call is recorded twice or lost, and false.
bool take_launch_call_records(EnableRuntimeApi enable = cuptiActivityEnableRuntimeApi);

/// Turns CUPTI's records of the kernel-launching calls back on.
void leave_launch_call_records(EnableRuntimeApi enable = cuptiActivityEnableRuntimeApi);

}  // namespace labbook::profiler
