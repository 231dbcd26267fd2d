#pragma once
/// @file
/// Memory architectures for the warp-level model, as data: the same algorithms in
/// global_cost.cpp and shared_cost.cpp run with each table row's numbers.
#include <string>
#include <vector>

namespace labbook::warp {

struct Architecture {
  std::string id;                 ///< "sm_90", "fermi_ca", "fermi_cg", "cc1x"
  std::string description;
  std::string short_name;         ///< for a table's header: "Fermi, L1 cached"
  std::string citation;           ///< where the rule comes from

  // Global memory.
  int coalescing_lanes = 32;      ///< lanes whose addresses combine: a warp, or a half-warp (CC 1.x)
  int load_unit_bytes = 32;       ///< what one load transaction moves: 32-byte sector/segment, 128-byte line
  int store_unit_bytes = 32;      ///< stores are written in 32-byte segments on every GPU here
  int store_segments_per_transaction = 1;   ///< Fermi groups up to 4 adjacent segments in one transaction
  /// CC 1.0/1.1 (004's word-size table): a half-warp coalesces only if lane k reads word k
  /// and the first word is aligned to 16 x the word size; otherwise one transaction per lane.
  bool strict_coalescing = false;

  // Shared memory.
  int banks = 32;
  int bank_bytes = 4;
  int shared_lanes = 32;          ///< lanes served together: a warp, or a half-warp (CC 1.x)
  /// CC 1.x broadcasts one word per step and serves one thread per other bank; later GPUs
  /// serve every thread reading a word (multicast) at once.
  bool one_broadcast_word = false;
  /// CC 1.x splits a 64-bit access into two 32-bit requests; later GPUs serve 128 bytes
  /// per wavefront (16 lanes of 8 bytes, 8 lanes of 16 bytes).
  bool split_wide_shared_accesses = false;
};

/// Every architecture the model knows, in a stable order.
const std::vector<Architecture>& architectures();

/// The architecture with this id; throws labbook::Error listing the known ids.
const Architecture& architecture(const std::string& id);

}  // namespace labbook::warp
