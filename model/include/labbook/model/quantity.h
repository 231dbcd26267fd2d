#pragma once
/// @file
/// Every quantity labbook names, resolved once into a typed reference: a catalog metric
/// (metric_catalog.h), a quantity labbook derives (the table in quantity_table.cpp), or a
/// rate's share of a lab's published peak ("flop_rate_sp_pct_of_peak"). Lab files and rubrics
/// resolve their names when they load, with the file and line of a bad one; the sheet, the
/// checks and the audit dispatch on the reference's id, never on its name.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace labbook {

struct CatalogMetric;

enum class QuantityScope {
  kRange = 1,   ///< an experiment's NVTX range in a lab
  kCall = 2,    ///< a harness call of an exercise
  kBoth = 3,
};

/// What a quantity is, for the code that computes it: one id per derived quantity, kMetric for
/// any catalog metric and kShareOfPeak for "<rate>_pct_of_peak".
enum class QuantityId : std::uint8_t {
  kUnset, kMetric, kShareOfPeak,
  kTime, kEffectiveBandwidth, kHostTime, kHostBandwidth, kEffectiveBandwidthPctOfPeak, kDramBandwidth, kThreads,
  kPayload, kPayloadBytes, kPayloadPct, kPayloadError, kPayloadNs, kRangeTime,
  kKernelsTimePct, kKernelsTime, kKernelsCalls, kKernelsAvg, kKernelsMin, kKernelsMax,
  kHtodTimePct, kHtodTime, kHtodCalls, kHtodAvg, kHtodMin, kHtodMax,
  kDtohTimePct, kDtohTime, kDtohCalls, kDtohAvg, kDtohMin, kDtohMax,
  kUmHtodBytes, kUmDtohBytes, kUmGpuPageFaults, kUmCpuPageFaults,
  kCopyOverlapPct, kMaxConcurrentKernels, kCyclesPerLoad, kFlopRateSp, kFlopRateDp, kCyclesPerInstruction,
  kSpeedPctOfReference, kWallTime, kWallSpeedPctOfReference, kPageableCopyBytes, kSynchronousCopies, kLinkPct,
  kCopyHiddenPct,
};

/// A derived quantity's row of the table.
struct DerivedQuantity {
  QuantityId id;
  const char* name;
  const char* unit;
  const char* description;
  QuantityScope scope;
  /// Whether it moves from run to run: it rests on a time or on what ran when.
  bool timed;
  bool in(QuantityScope s) const { return (static_cast<int>(scope) & static_cast<int>(s)) != 0; }
};

/// A quantity, resolved from its name.
class Quantity {
 public:
  /// No quantity yet (a field filled after its struct is made); every query of it is empty.
  Quantity() = default;
  /// The quantity `name` names in `scope`, or nullopt for a name it does not know there.
  static std::optional<Quantity> find(const std::string& name, QuantityScope scope = QuantityScope::kRange);
  /// A quantity labbook's own code names: throws std::logic_error for an unknown name.
  static Quantity named(const std::string& name);

  QuantityId id() const { return id_; }
  const std::string& name() const { return name_; }
  /// The catalog metric (kMetric), else nullptr.
  const CatalogMetric* metric() const { return metric_; }
  /// The rate a kShareOfPeak quantity is a share of.
  Quantity rate() const;
  bool in(QuantityScope s) const;

  /// "%", "ns", "bytes/s", ...; "" when the catalog gives none.
  std::string unit() const;
  /// Whether the value moves from run to run: a duration, a rate, a clock, or what rests on
  /// them; counters repeat exactly. A claim on one run of such a quantity cannot know its noise.
  bool timed() const;
  /// The words a reader sees ("Load efficiency"), from quantity_labels.h.
  std::string label() const;
  /// One line saying what it is and how it is computed.
  std::string description() const;

  friend bool operator==(const Quantity& a, const Quantity& b) { return a.name_ == b.name_; }
  friend bool operator!=(const Quantity& a, const Quantity& b) { return !(a == b); }
  friend bool operator<(const Quantity& a, const Quantity& b) { return a.name_ < b.name_; }

 private:
  Quantity(std::string name, QuantityId id, const DerivedQuantity* derived, const CatalogMetric* metric)
      : name_(std::move(name)), id_(id), derived_(derived), metric_(metric) {}
  std::string name_;
  QuantityId id_ = QuantityId::kUnset;
  const DerivedQuantity* derived_ = nullptr;
  const CatalogMetric* metric_ = nullptr;
};

/// Every derived quantity's row, in the table's order.
const std::vector<DerivedQuantity>& derived_quantities();

/// The name before "_pct_of_peak" ("flop_rate_sp" for "flop_rate_sp_pct_of_peak"), whether or
/// not a rate of that name exists; empty for any other name.
std::string_view share_of_peak_rate(std::string_view name);

/// The quantities of scope `s` closest to `name` (catalog metrics among them), for "did you
/// mean" messages: up to `count`, comma-separated.
std::string closest_quantities(const std::string& name, QuantityScope s, std::size_t count = 3);

}  // namespace labbook
