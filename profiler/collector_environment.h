#pragma once
/// @file
/// The contract between labbook's profiling session (profile_session.h, the parent) and the
/// collector injected into the program (collector.h, the child): the environment variables
/// through which one run of the program is told what to collect and where to put it. Both
/// sides use these names and only these: CollectorRun::environment() writes them, and
/// CollectorConfig::from_environment() (collector.h) reads them back, here too.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace labbook::profiler {

namespace env {
inline constexpr const char* kMode = "LABBOOK_MODE";                ///< "trace", "metrics" or "source"
inline constexpr const char* kOutput = "LABBOOK_OUTPUT";            ///< the measurement file to write
/// An open descriptor to write the measurement to instead of kOutput's file: a pipe the
/// parent reads while the program runs (`labbook grade`, where the program may not create files).
inline constexpr const char* kOutputFd = "LABBOOK_OUTPUT_FD";
inline constexpr const char* kMetrics = "LABBOOK_METRICS";          ///< CUPTI metrics (SASS metrics in a source run), comma-separated
inline constexpr const char* kReplay = "LABBOOK_REPLAY";            ///< "application" or "kernel"
inline constexpr const char* kCacheControl = "LABBOOK_CACHE_CONTROL";   ///< "all" or "none"
inline constexpr const char* kPass = "LABBOOK_PASS";                ///< which run of the pass plan
/// A source run: the kernel (mangled name) to count; unset, the first one the filter chooses
/// whose chosen launch is its first (sass_source.h).
inline constexpr const char* kSourceKernel = "LABBOOK_SOURCE_KERNEL";
inline constexpr const char* kExpectedLaunches = "LABBOOK_EXPECTED_LAUNCHES";   ///< see CollectorRun
inline constexpr const char* kWithoutStops = "LABBOOK_WITHOUT_STOPS";           ///< "1": see CollectorRun
inline constexpr const char* kProfiledOnly = "LABBOOK_PROFILED_ONLY";           ///< "1": see CollectorRun
inline constexpr const char* kPassPlan = "LABBOOK_PASS_PLAN";       ///< the plan file shared by the runs
inline constexpr const char* kNvtx = "LABBOOK_NVTX";                ///< launch filter: range globs
inline constexpr const char* kKernels = "LABBOOK_KERNELS";          ///< launch filter: kernel globs
inline constexpr const char* kLaunchSkip = "LABBOOK_LAUNCH_SKIP";
inline constexpr const char* kLaunchCount = "LABBOOK_LAUNCH_COUNT";
inline constexpr const char* kVerbose = "LABBOOK_VERBOSE";          ///< "1": where the collector's time went
inline constexpr const char* kL2Flush = "LABBOOK_L2_FLUSH";         ///< the flush's passes (l2_flusher.h)
/// For tests: at most this many launches a counter-data image, so that a short program's
/// metrics run takes several batches (tests/gpu/application_batches.sh).
inline constexpr const char* kRangesPerImage = "LABBOOK_RANGES_PER_IMAGE";
}  // namespace env

/// One run of the program under the collector, as the parent asks for it.
struct CollectorRun {
  std::string mode;                     ///< "trace", "metrics" or "source"
  std::string output;                   ///< measurement file
  std::vector<std::string> metrics;     ///< metrics runs: CUPTI metrics; the source run: SASS metrics
  std::string replay = "application";
  std::string cache_control = "all";
  int pass = 0;
  std::string pass_plan;
  std::vector<std::string> nvtx, kernels;
  std::optional<std::uint64_t> launch_skip, launch_count;
  std::string source_kernel;            ///< a source run: the kernel to count ("" for the first's choice)
  /// Metrics runs after a trace run: the most launches they profile, which sizes the counter
  /// data of application replay (a range each, about 1 MB of host memory a range).
  std::optional<std::uint64_t> expected_launches;
  /// ... and whether they follow one another without a stop (profiles_without_stops), so
  /// that all metrics may be one group carried from run to run.
  bool without_stops = false;
  /// Metrics runs that join a measurement of every launch: carry only the kernels they
  /// profile, with a tally of every launch (Measurement::launch_tally).
  bool profiled_only = false;

  /// The variables for this run (those of the launch filter empty when unset).
  std::map<std::string, std::string> environment() const;
};

}  // namespace labbook::profiler
