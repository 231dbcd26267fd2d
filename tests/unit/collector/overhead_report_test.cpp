// LABBOOK_VERBOSE's line (overhead_report.h) from made-up figures: every figure in its place,
// seconds to the millisecond, memory to the megabyte.
#include <gtest/gtest.h>

#include "overhead_report.h"

using namespace labbook::profiler;

TEST(OverheadReport, ATraceRunsLineHasEveryFigure) {
  TraceOverhead o;
  o.launches = 100000;
  o.callback_seconds = 1.23456;
  o.callbacks = 300007;
  o.finish_seconds = 2.5;
  o.records_seconds = 0.0004;
  o.build_seconds = 1.9996;
  o.write_seconds = 0.25;
  o.since_start_seconds = 61.0;
  o.peak_mb = 511.6;
  o.peak_before_finish_mb = 402.4;
  EXPECT_EQ(describe_overhead(o),
            "labbook collector: 100000 launches, 1.235 s in 300007 of labbook's callbacks, 2.500 s finishing (0.000 s "
            "CUPTI's last records, 2.000 s the measurement built, 0.250 s written), 61.000 s since the collector "
            "started, 512 MB peak resident memory (402 MB before finishing)\n");
}

TEST(OverheadReport, AProfiledRunsLineHasEveryFigure) {
  ProfilerOverhead o;
  o.launches = 20;
  o.launch_seconds = 3.0;
  o.passes = 4;
  o.setup_seconds = 0.5;
  o.host_setup_seconds = 0.25;
  o.availability_seconds = 0.1;
  o.host_object_seconds = 0.05;
  o.metrics_and_plan_seconds = 0.075;
  o.config_image_seconds = 0.025;
  o.pass_control_seconds = 0.125;
  o.evaluation_seconds = 0.375;
  o.checkpoint_seconds = 1.125;
  o.ranges_per_image = 64;
  o.counter_data_bytes = 12345678;
  o.flushes = 80;
  o.flush_seconds = 0.008;
  o.flush_prepare_seconds = 0.13;
  o.flush_waited_seconds = 0.012;
  o.finish_seconds = 0.9;
  o.profiler_finish_seconds = 0.7;
  o.since_start_seconds = 12.0;
  o.peak_mb = 700.4;
  EXPECT_EQ(describe_overhead(o),
            "labbook collector: 20 launches, 3.000 s inside launch calls (replay, setup and L2 flushes included), "
            "4 passes, 0.500 s setting up the profiler (0.250 s of it the host config and pass plan: 0.100 s the "
            "counter availability, 0.050 s the host object, 0.075 s the metrics and pass plan, 0.025 s the config "
            "image), 0.125 s setting up passes (SetConfig, Start, replayed passes' Stop), 0.375 s evaluating "
            "counters, 1.125 s saving and restoring memory for kernel replay, 64 ranges a counter-data image "
            "(12.3 MB in all), 80 L2 flushes in 0.008 s after 0.130 s preparing them (0.012 s of it waited for), "
            "0.900 s finishing (0.700 s of it the profiler's last batch and teardown), 12.000 s since the collector "
            "started, 700 MB peak resident memory\n");
}
