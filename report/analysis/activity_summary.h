#pragma once
/// @file
/// nvprof-style statistics of a measurement: "GPU activities" (kernels, copies, memsets
/// by name), "API calls", and kernels per NVTX range with their metrics. Pure functions
/// of the data model; profile_summary.h turns them into a document.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "labbook/model/measurement.h"

namespace labbook::report {

/// One line of nvprof's tables: every call of one name.
struct ActivityRow {
  std::string name;
  std::uint64_t calls = 0;
  std::uint64_t total_ns = 0, min_ns = 0, max_ns = 0;
  double share_pct = 0;        ///< of the table's total time
  double average_ns() const { return calls ? static_cast<double>(total_ns) / static_cast<double>(calls) : 0.0; }
};

/// Kernels by demangled name, copies as "[CUDA memcpy HtoD]" etc. and memsets as
/// "[CUDA memset]", as nvprof names them; longest total first. Kernels without timing
/// (a metrics-only run) are left out.
std::vector<ActivityRow> gpu_activities(const Measurement&);

/// gpu_activities() of the kernels and copies attributed to one NVTX range; with
/// `kernels_together`, every kernel counts under the one name "kernels" (nvprof's table per
/// range, and its rows as quantities: see quantities.h).
std::vector<ActivityRow> gpu_activities_in(const Measurement&, const std::string& range, bool kernels_together = false);

/// Runtime API calls by name, longest total first.
std::vector<ActivityRow> api_call_statistics(const Measurement&);

/// Kernels of one name inside one range (see Kernel::range_or_name) and their metrics.
struct RangeKernels {
  std::string range;
  std::string kernel;          ///< short name
  std::size_t launches = 0;
  std::optional<double> median_ns;
  /// Catalog (or raw CUPTI) metric name -> values over the launches that have it.
  std::map<std::string, std::vector<double>> metrics;
};

/// One entry per (range, kernel), in order of first launch.
std::vector<RangeKernels> kernels_by_range(const Measurement&);

/// The metric columns a summary can show: every catalog metric whose CUPTI inputs were
/// all collected, then collected CUPTI metrics that no catalog metric shown covers.
std::vector<std::string> shown_metrics(const Measurement&);

/// Value of a shown metric (catalog name or CUPTI name) for one kernel.
std::optional<double> shown_metric_value(const std::string& name, const Kernel&);

/// nvprof's duration format: "164.12ms", "94.167ms", "4.7083ms", "33.664us", "1.64119s".
std::string nvprof_duration(double ns);

}  // namespace labbook::report
