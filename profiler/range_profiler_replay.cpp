// Kernel replay: a kernel's earlier passes launched again by the range profiler, each on the
// device memory the program's own launch will find, before that launch takes the last pass.
#include <functional>
#include <memory>
#include <string>

#include <cupti_profiler_target.h>

#include "cupti_status.h"
#include "device_checkpoint.h"
#include "range_profiler_state.h"
#include "stopwatch.h"
#include "labbook/model/text.h"

namespace labbook::profiler {

// Kernel replay of a set of several passes: the memory saved, then every pass but the last
// launched here, each after the memory is put back and `just_before` (the flush) has run;
// the memory is put back once more for the program's own launch, the last pass. False, with
// the profiler stopped, where the kernel cannot be replayed: it then runs unprofiled.
bool RangeProfiler::replay_earlier_passes(Context& c, const std::string& kernel,
                                          const std::function<void()>& just_before,
                                          const KernelRelauncher& relauncher) {
  // `relaunched`: the kernel ran again, so the memory must go back as it was for the
  // program's own launch; where even that fails, the program may compute otherwise.
  const auto give_up = [&](const std::string& why, bool relaunched) {
    if (c.running) {
      auto stop = LABBOOK_PARAMS(CUpti_RangeProfiler_Stop_Params);
      stop.pRangeProfilerObject = c.object;
      cuptiRangeProfilerStop(&stop);
      c.running = false;
    }
    const bool memory_changed = relaunched && !c.checkpoint->restore().empty();
    issues_.add(memory_changed ? "replay_failed" : "metrics_lost",
                demangled(kernel) + ": no metrics: " + why +
                    (memory_changed ? "; the kernel already ran again, so what the program computed after it may "
                                      "differ from a run without labbook: profile with --replay application"
                                    : ""));
    return false;
  };
  if (!relauncher.relaunch) return give_up("this launch cannot be replayed in the run", false);
  // Before the save: the module's __device__ variables must be in it. A kernel whose module
  // cannot be loaded here is loaded by its launch, as it always was.
  if (relauncher.load) relauncher.load();
  if (!c.checkpoint) c.checkpoint = std::make_unique<DeviceCheckpoint>(c.ctx);
  if (const std::string problem = c.checkpoint->save(); !problem.empty()) return give_up(problem, false);
  for (int pass = 0; pass + 1 < passes_; ++pass) {
    if (pass > 0)
      if (const std::string problem = c.checkpoint->restore(); !problem.empty()) return give_up(problem, true);
    if (!start_pass(c)) return give_up("the profiler could not start a pass", pass > 0);
    if (just_before) just_before();
    if (const std::string problem = relauncher.relaunch(); !problem.empty()) return give_up(problem, pass > 0);
    auto stop = LABBOOK_PARAMS(CUpti_RangeProfiler_Stop_Params);
    stop.pRangeProfilerObject = c.object;
    c.running = false;
    CUptiResult stopped = CUPTI_SUCCESS;
    {
      const ScopeSeconds timed(pass_control_seconds_);
      stopped = cuptiRangeProfilerStop(&stop);
    }
    if (stopped != CUPTI_SUCCESS) return give_up(describe_call("cuptiRangeProfilerStop", stopped), true);
    if (stop.isAllPassSubmitted) return give_up("CUPTI took fewer passes than it had said", true);
  }
  if (const std::string problem = c.checkpoint->restore(); !problem.empty()) return give_up(problem, true);
  return true;
}

}  // namespace labbook::profiler
