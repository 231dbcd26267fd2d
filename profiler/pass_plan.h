#pragma once
/// @file
/// A pass plan for application replay: the metric groups and the program runs each needs,
/// and the file that carries the plan from the first run to the later ones and to the CLI.
/// No CUPTI here: the CLI and the unit tests use it too.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace labbook::profiler {

/// Metrics collected together. Most groups need one pass of the counters, so one run; a
/// metric whose counters share no pass (an L2 hit rate on GH100) is a group of its own that
/// needs `passes` runs, CUPTI's pass index and counter data carried from run to run.
struct PassGroup {
  std::vector<std::string> metrics;
  int passes = 1;
  bool operator==(const PassGroup& o) const { return metrics == o.metrics && passes == o.passes; }
};

/// Which group, and which of its passes, one run of the program collects.
struct RunPass {
  std::size_t group = 0;
  int pass = 0;     ///< of the group's passes
  int passes = 1;   ///< the group's
  bool last() const { return pass + 1 == passes; }
};

struct PassPlan {
  std::vector<PassGroup> groups;   ///< in collection order
  std::string problem;             ///< "" or why planning failed

  /// Program runs the plan takes: its groups' passes added up.
  int runs() const;
  /// What run `run` (0-based) collects; none outside the plan.
  std::optional<RunPass> run(int run) const;
};

/// The plan file that carries a plan from the first run of the program to the later ones: a
/// group per line, its passes, a space, its metrics comma-separated. read_plan gives no
/// groups when the file is absent or a line is not of that form (a plan of an older labbook).
PassPlan read_plan(const std::string& path);
/// Writes atomically (temporary file, then rename); on failure writes nothing.
void write_plan(const std::string& path, const PassPlan& plan);
/// Where a run that collects one pass of several leaves its counter data for the next run:
/// files whose paths start with this, next to the plan.
std::string carried_counters_prefix(const std::string& plan_path);
/// Removes them all: before a profile's first run, so that nothing of an earlier profile is
/// read, and after its last.
void remove_carried_counters(const std::string& plan_path);

/// How the runs of a plan may carry counters from run to run.
enum class Carrying {
  /// Only a multi-pass metric's own group: CUPTI carries counters only for a context's first
  /// batch of launches, so the single-pass groups take any number of launches.
  MultiPassMetricsOnly,
  /// Every launch to profile fits a context's first batch: all metrics may be one group
  /// carried from run to run, where that takes fewer runs (lab 4's set: 3 runs, not 4).
  AllInOneBatch,
};

/// The most launches a plan of all metrics in one carried group takes: the first batch then
/// holds them all whatever its bytes (lab 4's set, 3 passes: about 0.2 MB a range).
inline constexpr std::uint64_t kOneGroupLaunches = 128;

/// How a metrics run plans: all in one batch where the trace run saw nothing that ends a
/// batch (`without_stops`, replay_choice.h) and counted `launches` to profile, at most
/// kOneGroupLaunches and at most the ranges an image was asked to hold.
Carrying carrying_for(bool without_stops, std::optional<std::uint64_t> launches,
                      std::optional<std::uint64_t> ranges_per_image);

/// The folder plans are kept in between invocations of labbook (cache_folder.h).
inline constexpr const char* kPlanCacheKind = "pass-plans";
/// The file in `folder` of the plan for `metrics` on `chip` with CUPTI `cupti_version`.
std::string plan_cache_file(const std::string& folder, const std::string& chip, int cupti_version,
                            const std::vector<std::string>& metrics, Carrying carrying);

/// True when `plan` collects exactly `metrics`, each once (a plan file of another metric set,
/// or a damaged one, does not).
bool plan_covers(const PassPlan& plan, const std::vector<std::string>& metrics);

}  // namespace labbook::profiler
