#pragma once
/// @file
/// A pass plan for application replay: the metric groups, one program run each, and the
/// file that carries the plan from the first run to the later ones and to the CLI. No
/// CUPTI here: the CLI and the unit tests use it too.
#include <string>
#include <vector>

namespace labbook::profiler {

struct PassPlan {
  std::vector<std::vector<std::string>> groups;   ///< in collection order
  std::string problem;                             ///< "" or why planning failed
};

/// The plan file that carries a plan from the first run of the program to the later ones:
/// a group per line, metrics comma-separated. read_plan gives no groups when it is absent.
PassPlan read_plan(const std::string& path);
/// Writes atomically (temporary file, then rename); on failure writes nothing.
void write_plan(const std::string& path, const PassPlan& plan);
/// True when `plan` collects exactly `metrics`, each once (a plan file of another metric set,
/// or a damaged one, does not).
bool plan_covers(const PassPlan& plan, const std::vector<std::string>& metrics);

}  // namespace labbook::profiler
