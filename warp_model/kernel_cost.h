#pragma once
/// @file
/// A kernel's predicted global-memory traffic: the instructions of its warps, produced by
/// a function of the warp index, costed on an architecture and added up.
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "global_cost.h"
#include "shared_cost.h"
#include "warp_access.h"

namespace labbook::warp {

struct KernelCost {
  GlobalCost loads, stores;              ///< global memory
  SharedCost shared_loads, shared_stores;
  /// Quantities a kernel's model states outright rather than from its memory instructions
  /// (e.g. "flop_count_sp"), the same on every architecture.
  std::map<std::string, double> counts;

  /// A catalog quantity (gld_efficiency, gst_efficiency, gld_transactions,
  /// gst_transactions, gld/gst_transactions_per_request, inst_executed_global_loads/stores,
  /// shared_load/store_transactions(_per_request), shared_load/store_bank_conflicts), or one
  /// of `counts`; nullopt for anything the model does not predict.
  std::optional<double> quantity(const std::string& name) const;
};

/// Appends warp `warp`'s memory instructions, in program order, to `out`.
using WarpProgram = std::function<void(std::uint64_t warp, std::vector<WarpAccess>& out)>;

/// Each instruction counts `repeat` times. Costs every warp when there are at most `exact_limit`; otherwise the first and last 1024
/// warps exactly and 2048 evenly spaced ones for the rest, scaled to the warps they stand
/// for (lab kernels differ only at the edges of the grid).
KernelCost kernel_cost(std::uint64_t warps, const WarpProgram& program, const Architecture& arch,
                       std::uint64_t exact_limit = 65536);

}  // namespace labbook::warp
