#include "replay_choice.h"

#include <algorithm>
#include <set>
#include <unordered_set>

namespace labbook::profiler {

namespace {
// What kernel replay costs per profiled launch: CUPTI's start and stop of each pass, about
// 22 ms, three passes for lab 4's metric set, and saving and putting back the program's memory
// (H200, quiet, 2026-11-28: lab 4's 88 launches 0.14 s each, 0.065 s of it the memory, three
// 64 MiB arrays and a pinned 64 MiB buffer; 0.07 s where the memory is small; 0.27-0.33 s each
// on a host loaded with other GPU tests). Application replay costs a run of the program and
// 0.7-0.9 s of CUPTI's set-up per pass beyond the first; a set of several metrics is taken to
// need three runs where no plan is known (lab 4's: three as one carried group, four in groups).
// Rough on purpose, and on the side of application replay, which copies no memory and prints
// a kernel's printf once: the choice only has to be right by a margin.
constexpr double kKernelReplaySecondsPerLaunch = 0.25;
constexpr double kRunSetupSeconds = 1.0;
constexpr double kExtraRuns = 2;   // beyond kernel replay's one run
}  // namespace

std::uint64_t launches_to_profile(const Measurement& trace, std::optional<std::uint64_t> launch_skip,
                                  std::optional<std::uint64_t> launch_count) {
  std::uint64_t launches = trace.kernels.size();
  launches -= std::min(launches, launch_skip.value_or(0));
  return launch_count ? std::min(launches, *launch_count) : launches;
}

bool profiles_without_stops(const Measurement& trace, bool filtered_by_name) {
  if (filtered_by_name) return false;
  std::unordered_set<std::uint32_t> runtime_calls;
  for (const auto& call : trace.api_calls) {
    for (const char* stop : {"GraphLaunch", "BeginCapture", "ResetPersistingL2Cache"})
      if (call.name.find(stop) != std::string::npos) return false;
    runtime_calls.insert(call.correlation);
  }
  // A kernel no runtime call launched came from the driver API, whose graph launches and
  // captures the trace does not show: then a stop cannot be ruled out.
  for (const auto& k : trace.kernels)
    if (!runtime_calls.count(k.correlation)) return false;
  return true;
}

ReplayChoice choose_replay(const Measurement& trace, double trace_seconds, std::optional<std::uint64_t> launch_skip,
                           std::optional<std::uint64_t> launch_count, std::optional<int> planned_runs) {
  if (!trace.memory_events.empty())
    return {"application", "the program uses managed memory, which kernel replay would not put back as it was"};
  std::set<std::uint32_t> threads;
  for (const auto& k : trace.kernels) threads.insert(k.thread);
  bool graphs = false;
  for (const auto& call : trace.api_calls) {
    threads.insert(call.thread);
    graphs = graphs || call.name.find("GraphLaunch") != std::string::npos;
  }
  if (threads.size() > 1)
    return {"application", std::to_string(threads.size()) + " host threads call CUDA: kernel replay puts memory back "
                                                             "as it was before the kernel, which another thread may be "
                                                             "changing"};
  if (graphs) return {"application", "the program launches CUDA graphs, whose kernels are replayed node by node"};
  const std::uint64_t launches = launches_to_profile(trace, launch_skip, launch_count);
  const double kernel_seconds = static_cast<double>(launches) * kKernelReplaySecondsPerLaunch;
  // Kernel replay is one run of the program; application replay one a pass of the plan.
  const double extra_runs = planned_runs ? *planned_runs - 1 : kExtraRuns;
  const double run_seconds = extra_runs * (trace_seconds + kRunSetupSeconds);
  const std::string count = std::to_string(launches) + (launches == 1 ? " launch" : " launches");
  const std::string plan =
      planned_runs ? " (" + std::to_string(*planned_runs) + (*planned_runs == 1 ? " run" : " runs") +
                         " by this metric set's plan, kept from an earlier profile on this GPU)"
                   : "";
  if (kernel_seconds < run_seconds)
    return {"kernel", count + " to profile: replaying each in one run costs less than running the program again for "
                              "each pass" + plan};
  std::string why = count + " to profile: running the program once for each pass costs less than replaying each" + plan;
  if (launches > kApplicationReplayImageLaunches)
    why += "; a metric whose passes are runs of the program (the L2 hit rate) gets values for the first " +
           std::to_string(kApplicationReplayImageLaunches) + " only (--replay kernel for all)";
  return {"application", why};
}

}  // namespace labbook::profiler
