#include "profiled_launch.h"

#include <string>

#include "context_sync.h"
#include "issue_log.h"
#include "kernel_relaunch.h"
#include "l2_flusher.h"
#include "range_profiler.h"

namespace labbook::profiler {

void profile_launch(RangeProfiler& profiler, L2Flusher* flusher, IssueLog& issues, CUpti_CallbackId cbid,
                    const CUpti_CallbackData& d, int device, std::uint64_t index) {
  // The flush comes last: CUPTI's set-up before the first kernel touched L2 again. Kernel
  // replay launches the kernel again for its earlier passes, each after a flush. The
  // program's earlier work is waited for first, as ncu serializes it and kernel replay's
  // memory save already does: the GPU time-slices the program's context and the flusher's,
  // so work still running could dirty L2 after the flush, its lines then written back during
  // the profiled kernel. CUPTI's auto range waits for the whole context after each launch
  // anyway (its documentation), so this adds no hang that its wait would not.
  const auto flush = [&] {
    if (!flusher) return;
    synchronize_context(d.context);
    if (const std::string problem = flusher->flush(device); !problem.empty())
      issues.add("cache_control_failed", "L2 could not be flushed before kernels (" + problem +
                                             "): they started with what earlier work left in L2");
  };
  const KernelRelauncher relauncher{[&] { return load_kernel(cbid, d.functionParams); },
                                    [&] {
                                      RelaunchGuard guard;
                                      return relaunch_kernel(cbid, d.functionParams);
                                    }};
  profiler.before_launch(d.context, index, d.symbolName ? d.symbolName : "", flush, relauncher);
}

}  // namespace labbook::profiler
