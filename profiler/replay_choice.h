#pragma once
/// @file
/// `labbook profile --replay auto`: after the trace run, choose how the metrics runs replay
/// the counter passes, from what that run saw. Kernel replay (one run: each profiled kernel
/// launched once per pass, memory put back between passes) is taken to cost a quarter of a
/// second a launch, application replay a run of the program and a second of CUPTI's set-up
/// per pass: estimates on the side of application replay (replay_choice.cpp has what was
/// measured).
/// No CUPTI here.
#include <cstdint>
#include <optional>
#include <string>

#include "labbook/model/measurement.h"

namespace labbook::profiler {

/// The most launches one counter-data image of application replay holds (range_profiler_host.cpp).
/// A metric whose passes are runs of the program gets values for that many launches of a
/// context at most (CUPTI 13.0 carries only a context's first image from run to run).
inline constexpr std::uint64_t kApplicationReplayImageLaunches = 512;

struct ReplayChoice {
  std::string replay;   ///< "kernel" or "application"
  std::string why;      ///< one sentence, for the user
};

/// The most launches a metrics run profiles, from the trace run's kernels and the window of
/// launches asked for (the NVTX and kernel filters may choose fewer).
std::uint64_t launches_to_profile(const Measurement& trace, std::optional<std::uint64_t> launch_skip,
                                  std::optional<std::uint64_t> launch_count);

/// Whether a metrics run profiles its launches without a stop, where a counter-data batch
/// ends (range_profiler.h): the trace run launched no graph, began no stream capture and
/// reset no persisting L2 lines, and no filter by kernel or NVTX range leaves launches out
/// between those it chooses. Then every launch to profile, up to an image's worth, is in a
/// context's first batch, and all metrics may be carried from run to run
/// (Carrying::AllInOneBatch). The trace shows runtime calls only: a kernel that none of them
/// launched came through the driver API, which may have launched graphs or begun captures
/// unseen, and then the answer is no.
bool profiles_without_stops(const Measurement& trace, bool filtered_by_name);

/// `trace`: the trace run's measurement, which took `trace_seconds`; `launch_skip` and
/// `launch_count`: the request's window of launches; `planned_runs`: the runs application
/// replay's plan takes, where labbook knows it (otherwise taken as three). Kernel replay is
/// chosen only where it is safe (one host thread calls CUDA, no managed memory, no graph
/// launches: the memory it puts back cannot be another thread's or the driver's work in
/// flight) and cheaper. What it sees is what the trace run records: the threads of kernel
/// launches and of runtime API calls, and managed memory's migrations; a second thread calling
/// only the driver API, and graphs launched through the driver API, go unseen.
ReplayChoice choose_replay(const Measurement& trace, double trace_seconds, std::optional<std::uint64_t> launch_skip,
                           std::optional<std::uint64_t> launch_count, std::optional<int> planned_runs = std::nullopt);

}  // namespace labbook::profiler
