#pragma once
/// @file
/// The line LABBOOK_VERBOSE prints at the end of a run: where the collector's time and memory
/// went, from figures the collector measured. No CUPTI: unit tests format made-up figures.
#include <cstddef>
#include <cstdint>
#include <string>

namespace labbook::profiler {

/// A run without the range profiler (a trace or source run): its callbacks' cost and its finish.
struct TraceOverhead {
  std::size_t launches = 0;
  double callback_seconds = 0;   // inside labbook's callbacks
  std::uint64_t callbacks = 0;
  double finish_seconds = 0;     // finish(), of which:
  double records_seconds = 0;    // CUPTI's last records
  double build_seconds = 0;      // the measurement built
  double write_seconds = 0;      // the measurement written
  double since_start_seconds = 0;
  double peak_mb = 0, peak_before_finish_mb = 0;   // peak resident memory
};

/// A run with the range profiler: its launches' cost, the profiler's stages and the L2 flushes.
struct ProfilerOverhead {
  std::size_t launches = 0;
  double launch_seconds = 0;     // inside launch calls (replay, setup and L2 flushes included)
  int passes = 0;
  double setup_seconds = 0;      // setting up the profiler, of which:
  double host_setup_seconds = 0;   // the host config and pass plan, of which:
  double availability_seconds = 0, host_object_seconds = 0, metrics_and_plan_seconds = 0, config_image_seconds = 0;
  double pass_control_seconds = 0, evaluation_seconds = 0, checkpoint_seconds = 0;
  std::size_t ranges_per_image = 0;
  std::size_t counter_data_bytes = 0;
  int flushes = 0;
  double flush_seconds = 0, flush_prepare_seconds = 0, flush_waited_seconds = 0;
  double finish_seconds = 0, profiler_finish_seconds = 0;   // finish(), and its part the profiler's last batch
  double since_start_seconds = 0;
  double peak_mb = 0;
};

/// "labbook collector: 12 launches, 0.004 s in 57 of labbook's callbacks, ...", with its newline.
std::string describe_overhead(const TraceOverhead& o);
/// "labbook collector: 12 launches, 1.250 s inside launch calls (...), 3 passes, ...", with its newline.
std::string describe_overhead(const ProfilerOverhead& o);

}  // namespace labbook::profiler
