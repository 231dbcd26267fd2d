#pragma once
/// @file
/// The metric catalog: the names the sources use (nvprof's, CC < 7.0) mapped to the
/// Perfworks metrics CUPTI collects on CC >= 7.0, with unit, meaning and formula.
/// Pure data: the collector asks it which CUPTI metrics to collect, the report asks it how
/// to turn a kernel's collected values into the number the source printed.
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace labbook {

/// How a catalog metric is computed from collected CUPTI metrics.
enum class MetricFormula {
  Direct,        ///< inputs[0]
  Ratio,         ///< inputs[0] / inputs[1]
  ScaledByPct,   ///< inputs[0] * inputs[1] / 100
  WeightedSum,   ///< weights[0] * inputs[0] + weights[1] * inputs[1] + ... (nvprof's flop counts)
  Product,       ///< inputs[0] * inputs[1] (a peak per cycle times the clock)
  /// The weighted sum of every input but the last, where the last is > 0, else none (a count
  /// that means nothing without it).
  CountWhere,
};

struct CatalogMetric {
  std::string name;                  ///< nvprof name (or labbook's where nvprof had none)
  std::string unit;                  ///< "%", "sectors", "bytes", "ns", "bytes/s", "Hz", ...
  std::string description;
  MetricFormula formula = MetricFormula::Direct;
  std::vector<std::string> inputs;   ///< CUPTI (Perfworks) metric names
  std::string note;                  ///< why the number differs from nvprof's, if it does
  std::vector<double> weights = {};  ///< WeightedSum, CountWhere: one per summed input (none: all 1)

  /// The formula as text, e.g. "l1tex__t_sectors_..._ld.sum / l1tex__t_requests_..._ld.sum",
  /// "a.sum + b.sum + 2 x c.sum".
  std::string formula_text() const;
  /// Value from a kernel's collected metrics; nullopt if an input is missing or a
  /// denominator is zero.
  std::optional<double> evaluate(const std::map<std::string, double>& collected) const;

 private:
  double weight(std::size_t i) const;
  double weighted_sum(const std::vector<double>& values, std::size_t count) const;
  std::string weighted_text(std::size_t count) const;
};

/// Every catalog entry, in a stable order.
const std::vector<CatalogMetric>& metric_catalog();

/// Finds an entry by catalog name, or by the CUPTI name of a Direct entry. nullptr if none.
const CatalogMetric* find_catalog_metric(const std::string& name);

/// True for a name in Perfworks' grammar ("unit__counter.rollup"), e.g. "dram__bytes_read.sum".
bool is_perfworks_name(const std::string& name);

/// What is wrong with the shape of Perfworks name `name` ("" when nothing is): checked
/// before anything runs, also without a GPU. Whether the GPU has the metric is the
/// collector's to say.
std::string perfworks_name_problem(const std::string& name);

/// Resolves user-given names (catalog names, or Perfworks names, which pass through even
/// when the catalog lacks them: the collector checks them on the GPU) to the CUPTI metrics
/// to collect, in order, without duplicates. Throws labbook::Error for any other unknown
/// name, listing the closest catalog names.
std::vector<std::string> cupti_metrics_for(const std::vector<std::string>& names);

/// Up to `count` catalog names closest to `name` by edit distance.
std::vector<std::string> closest_metric_names(const std::string& name, std::size_t count = 3);

}  // namespace labbook
