#pragma once
/// @file
/// The labbook collector: CUPTI injected into an unmodified CUDA program.
///
/// The CUDA driver loads libcupti-collector through CUDA_INJECTION64_PATH and calls
/// InitializeInjection() (injection.cpp), which starts one Collector configured from the
/// environment. At process exit the collector writes one measurement file
/// (labbook/model/measurement.h). `labbook run` / `labbook profile` set the environment
/// and run the program to trace, then to collect metrics (once with kernel replay, once per
/// pass of the plan with application replay), because profiling serializes kernels and would
/// distort the timeline.
#include <memory>
#include <string>
#include <vector>

#include "flush_passes.h"
#include "launch_filter.h"

namespace labbook::profiler {

/// What one run of the collector does, read from the LABBOOK_* environment variables of
/// collector_environment.h.
struct CollectorConfig {
  std::string output;                 ///< LABBOOK_OUTPUT: measurement file to write
  int output_fd = -1;                 ///< LABBOOK_OUTPUT_FD: or the open descriptor to write it to
  bool trace = false;                 ///< LABBOOK_MODE contains "trace": Activity API timeline
  std::vector<std::string> metrics;   ///< LABBOOK_METRICS: CUPTI metrics, comma-separated
  /// LABBOOK_MODE=source: LABBOOK_METRICS are SASS metrics, counted per instruction
  /// (sass_source.h) instead of by the range profiler.
  std::vector<std::string> source_metrics;
  /// Which launches get metrics: LABBOOK_NVTX and LABBOOK_KERNELS (comma-separated globs),
  /// LABBOOK_LAUNCH_SKIP and LABBOOK_LAUNCH_COUNT (integers).
  LaunchFilterSpec filter;
  bool verbose = false;               ///< LABBOOK_VERBOSE=1: where the collector's time went, on stderr
  bool application_replay = false;    ///< LABBOOK_REPLAY=application (else kernel)
  int pass = 0;                       ///< LABBOOK_PASS: which run of application replay's plan this is
  std::optional<std::uint64_t> expected_launches;   ///< LABBOOK_EXPECTED_LAUNCHES (CollectorRun)
  bool without_stops = false;                       ///< LABBOOK_WITHOUT_STOPS (CollectorRun)
  bool profiled_only = false;                       ///< LABBOOK_PROFILED_ONLY (CollectorRun)
  std::optional<std::uint64_t> ranges_per_image;    ///< LABBOOK_RANGES_PER_IMAGE (tests)
  std::string source_kernel;          ///< LABBOOK_SOURCE_KERNEL: a source run's kernel to count
  std::string pass_plan;              ///< LABBOOK_PASS_PLAN: the plan file shared by the runs
  bool flush_l2 = false;              ///< LABBOOK_CACHE_CONTROL=all (else none)
  /// LABBOOK_L2_FLUSH: the flush's passes (l2_flusher.h), for studying L2's counters;
  /// unset: write then discard.
  std::vector<FlushPass> flush_passes = {FlushPass::Write, FlushPass::Discard};

  /// Reads the environment. Unset LABBOOK_OUTPUT gives "labbook-<pid>.json". Throws
  /// labbook::Error naming the variable when a value cannot be used.
  static CollectorConfig from_environment();
};

/// Starts collection: subscribes to CUPTI callbacks and enables what `config` asks for.
/// Returns false (after printing why) if CUPTI cannot be used at all. Call once.
bool start_collector(const CollectorConfig& config);

/// Evaluates pending metrics, flushes the trace and writes the measurement file, noting
/// `stop_reason` ("exit", "signal SIGSEGV", ...) in it. Safe to call more than once and
/// from several threads; only the first call writes.
void finish_collector(const std::string& stop_reason);

}  // namespace labbook::profiler
