#pragma once
// Quantities a sheet shows for an experiment (an NVTX range): catalog metrics and the few
// the report derives itself (time, bandwidths). Values are medians over the kernels the
// range holds; a missing value carries the reason, for "not collected: ..." cells.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "lab_data.h"
#include "labbook/model/measurement.h"
#include "labbook/model/quantity.h"

namespace labbook::report {

/// Bytes in a sector, the unit in which L1, L2 and DRAM move global data.
constexpr double kSectorBytes = 32;

struct QuantityValue {
  std::optional<double> value;   ///< the median of `samples`
  std::string missing;           ///< why there is no value (empty when there is one)
  /// Every repeat's value (one per kernel, copy or range occurrence): the run-to-run noise
  /// that claims and checks are decided against. Empty when there is no value.
  std::vector<double> samples = {};

  /// The lowest and highest repeat (the value itself when no repeats are known).
  double low() const;
  double high() const;
  /// True when the repeats differ: there is run-to-run noise to report.
  bool varies() const { return low() != high(); }
  /// The median's distribution-free 95 % confidence interval: the k-th lowest to the k-th
  /// highest repeat, for the largest k that keeps the median inside with 95 % or more. Up to
  /// 8 repeats that is low() to high(); of 20 it drops the 5 lowest and the 5 highest.
  std::pair<double, double> median_interval() const;
};

/// The value of a catalog quantity ("gld_transactions", ...) for one kernel or one group of
/// kernels, or nullopt when it was not measured.
using MeasuredQuantity = std::function<std::optional<double>(const std::string& catalog_name)>;

/// One precision's FLOPs ("sp" or "dp"): the FMA lanes' count (flop_count_sp/dp) plus the
/// tensor path's (tensor_flop_count_tf32/dp) where it was collected; nullopt when the lanes'
/// count was not.
std::optional<double> flop_count(const MeasuredQuantity& measured, const std::string& precision);

/// How the metrics were collected, for a sheet's reader: the replay ("application replay,
/// 2 runs of the program") and what L2 held when each kernel started.
std::string metric_collection(const Measurement&);

/// The value of `quantity` for the kernels launched inside `range` (exact path match).
/// `peaks`: the lab's [[peak]]s, which "<rate>_pct_of_peak" quantities divide by.
QuantityValue range_quantity(const Measurement&, const std::string& range, const Quantity& quantity,
                             const std::vector<ArithmeticPeak>& peaks = {});

}  // namespace labbook::report
