#pragma once
/// @file
/// What one warp-level global load or store costs on an architecture: requests,
/// transactions, 32-byte sectors, 128-byte lines, bytes requested and moved.
#include <cstdint>
#include <vector>

#include "architecture.h"
#include "warp_access.h"

namespace labbook::warp {

/// Counts that add up over instructions (see kernel_cost.h). Doubles, because a kernel's
/// totals are scaled up from sampled warps; one instruction's counts are whole numbers.
struct GlobalCost {
  double requests = 0;        ///< warp instructions with an active lane
  double transactions = 0;    ///< what the architecture's profiler counted (nvprof's
                              ///< gld/gst_transactions; sectors on sm_90)
  double sectors = 0;         ///< distinct 32-byte sectors touched
  double lines = 0;           ///< distinct 128-byte lines touched
  double bytes_requested = 0;
  double bytes_moved = 0;

  GlobalCost& operator+=(const GlobalCost& o);
  GlobalCost scaled(double factor) const;
  /// bytes requested / bytes moved, in % (100 when nothing moved).
  double efficiency_pct() const;
  double transactions_per_request() const;
};

/// One transaction, for pictures: which bytes it moves.
struct Transaction {
  std::uint64_t address = 0;
  std::uint64_t bytes = 0;
};

/// The cost of `access` on `arch`; `transactions`, if given, receives each transaction.
/// Throws labbook::Error when a lane's width is not 1 to 16 bytes.
GlobalCost global_cost(const WarpAccess& access, const Architecture& arch,
                       std::vector<Transaction>* transactions = nullptr);

}  // namespace labbook::warp
