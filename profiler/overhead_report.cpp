#include "overhead_report.h"

#include <cstdarg>
#include <cstdio>

namespace labbook::profiler {

namespace {

// printf's text as a string, sized by a first call (g++ 12 has no <format>); the attribute keeps
// the format checked against its arguments.
[[gnu::format(printf, 1, 2)]] std::string printed(const char* format, ...) {
  std::va_list args, again;
  va_start(args, format);
  va_copy(again, args);
  const int size = std::vsnprintf(nullptr, 0, format, args);
  va_end(args);
  std::string text(size > 0 ? static_cast<std::size_t>(size) : 0, '\0');
  if (size > 0) std::vsnprintf(text.data(), text.size() + 1, format, again);
  va_end(again);
  return text;
}

}  // namespace

std::string describe_overhead(const TraceOverhead& o) {
  return printed("labbook collector: %zu launches, %.3f s in %llu of labbook's callbacks, %.3f s finishing (%.3f s "
                 "CUPTI's last records, %.3f s the measurement built, %.3f s written), %.3f s since the collector "
                 "started, %.0f MB peak resident memory (%.0f MB before finishing)\n",
                 o.launches, o.callback_seconds, static_cast<unsigned long long>(o.callbacks), o.finish_seconds,
                 o.records_seconds, o.build_seconds, o.write_seconds, o.since_start_seconds, o.peak_mb,
                 o.peak_before_finish_mb);
}

std::string describe_overhead(const ProfilerOverhead& o) {
  return printed("labbook collector: %zu launches, %.3f s inside launch calls (replay, setup and L2 flushes "
                 "included), %d passes, %.3f s setting up the profiler (%.3f s of it the host config and "
                 "pass plan: %.3f s the counter availability, %.3f s the host object, %.3f s the metrics and "
                 "pass plan, %.3f s the config image), %.3f s setting up passes (SetConfig, Start, replayed "
                 "passes' Stop), %.3f s evaluating counters, %.3f s saving and restoring memory for kernel replay, "
                 "%zu ranges a counter-data image (%.1f MB in all), "
                 "%d L2 flushes in %.3f s after %.3f s preparing them (%.3f s of it waited for), "
                 "%.3f s finishing (%.3f s of it the profiler's last batch and teardown), "
                 "%.3f s since the collector started, %.0f MB peak resident memory\n",
                 o.launches, o.launch_seconds, o.passes, o.setup_seconds, o.host_setup_seconds, o.availability_seconds,
                 o.host_object_seconds, o.metrics_and_plan_seconds, o.config_image_seconds, o.pass_control_seconds,
                 o.evaluation_seconds, o.checkpoint_seconds, o.ranges_per_image,
                 static_cast<double>(o.counter_data_bytes) / 1e6, o.flushes, o.flush_seconds, o.flush_prepare_seconds,
                 o.flush_waited_seconds, o.finish_seconds, o.profiler_finish_seconds, o.since_start_seconds,
                 o.peak_mb);
}

}  // namespace labbook::profiler
