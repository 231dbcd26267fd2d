#pragma once
/// @file
/// What one kernel (or one experiment's kernels) moved through the memory hierarchy, from the
/// counters the collector gathered: global loads and stores from the SM to L1 (requests,
/// sectors), L1's hit rate, sectors from L1 to L2, L2's hit rate, DRAM bytes, shared-memory
/// instructions and wavefronts, local-memory sectors. A value that was not measured stays
/// empty: nothing here is estimated. memory_chart.h draws it.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "labbook/model/measurement.h"
#include "quantities.h"

namespace labbook::report {

/// A global access kind (loads or stores) between the SM and L1.
struct GlobalTraffic {
  std::optional<double> requests;         ///< warp instructions executed
  std::optional<double> sectors;          ///< 32-byte sectors L1 looked up for them
  std::optional<double> efficiency_pct;   ///< bytes the threads asked for / bytes in those sectors
};

/// Shared-memory loads or stores.
struct SharedTraffic {
  std::optional<double> instructions;     ///< warp instructions executed
  std::optional<double> wavefronts;       ///< passes through the shared-memory banks
  std::optional<double> bank_conflicts;
};

struct MemoryFlow {
  GlobalTraffic global_loads, global_stores;
  std::optional<double> l1_hit_rate_pct;      ///< of global loads' sectors
  std::optional<double> l2_read_sectors;      ///< read by L1 from L2 (global, local, texture)
  std::optional<double> l2_write_sectors;     ///< written by L1 to L2
  std::optional<double> l2_hit_rate_pct;      ///< of all L2 sectors
  std::optional<double> dram_read_bytes, dram_write_bytes;
  SharedTraffic shared_loads, shared_stores;
  std::optional<double> local_load_sectors, local_store_sectors;

  /// True when at least one value was measured.
  bool any() const;
};


/// The flow from whatever `measured` knows.
MemoryFlow memory_flow(const MeasuredQuantity& measured);

/// The flow of the kernels launched in `range`: each value the median over those kernels
/// (range_quantity, quantities.h).
MemoryFlow range_memory_flow(const Measurement&, const std::string& range);

/// The catalog quantities a flow is built from, for a reader who wants them all collected
/// (`labbook profile --metrics ...`).
const std::vector<std::string>& memory_flow_quantities();

/// One factual teaching line derived from the flow, for the kind of access (global loads or
/// stores, shared loads or stores) furthest above the least it could cost, e.g. "Global
/// loads: 5.00 sectors per request; the 128 B a request asks for on average need at least
/// 4.00 sectors per request." "" when the flow holds nothing to derive one from.
std::string memory_flow_caption(const MemoryFlow&);

/// The flow's values for a sheet's data, by the catalog quantity each comes from; null
/// where not measured.
nlohmann::json memory_flow_json(const MemoryFlow&);

/// The flow in sentences, every value or "not measured": the picture's text alternative.
std::string memory_flow_description(const MemoryFlow&);

/// "N sectors (M bytes)"; the bytes left out when there are no sectors.
std::string sectors_with_bytes(double sectors);

}  // namespace labbook::report
