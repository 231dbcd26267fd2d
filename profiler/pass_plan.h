#pragma once
/// @file
/// A pass plan for application replay: the metric groups and the program runs each needs,
/// and the file that carries the plan from the first run to the later ones and to the CLI.
/// No CUPTI here: the CLI and the unit tests use it too.
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

/// True when `plan` collects exactly `metrics`, each once (a plan file of another metric set,
/// or a damaged one, does not).
bool plan_covers(const PassPlan& plan, const std::vector<std::string>& metrics);

}  // namespace labbook::profiler
