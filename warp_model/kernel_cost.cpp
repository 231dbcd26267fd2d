#include "kernel_cost.h"

#include <algorithm>

namespace labbook::warp {

std::optional<double> KernelCost::quantity(const std::string& name) const {
  if (name == "gld_efficiency") return loads.efficiency_pct();
  if (name == "gst_efficiency") return stores.efficiency_pct();
  if (name == "gld_transactions") return loads.transactions;
  if (name == "gst_transactions") return stores.transactions;
  if (name == "gld_transactions_per_request") return loads.transactions_per_request();
  if (name == "gst_transactions_per_request") return stores.transactions_per_request();
  if (name == "inst_executed_global_loads" || name == "global_load_requests") return loads.requests;
  if (name == "inst_executed_global_stores" || name == "global_store_requests") return stores.requests;
  const auto per_request = [](const SharedCost& c) { return c.requests > 0 ? c.wavefronts / c.requests : 0.0; };
  if (name == "shared_load_transactions") return shared_loads.wavefronts;
  if (name == "shared_store_transactions") return shared_stores.wavefronts;
  if (name == "shared_load_transactions_per_request") return per_request(shared_loads);
  if (name == "shared_store_transactions_per_request") return per_request(shared_stores);
  if (name == "shared_load_bank_conflicts") return shared_loads.conflicts();
  if (name == "shared_store_bank_conflicts") return shared_stores.conflicts();
  if (const auto it = counts.find(name); it != counts.end()) return it->second;
  return std::nullopt;
}

KernelCost kernel_cost(std::uint64_t warps, const WarpProgram& program, const Architecture& arch,
                       std::uint64_t exact_limit) {
  KernelCost total;
  std::vector<WarpAccess> instructions;
  auto add = [&](std::uint64_t warp, double weight) {
    instructions.clear();
    program(warp, instructions);
    for (const auto& i : instructions) {
      const bool load = i.op == Operation::Load;
      if (i.space == Space::Shared) {
        (load ? total.shared_loads : total.shared_stores) += shared_cost(i, arch).scaled(weight * i.repeat);
      } else {
        (load ? total.loads : total.stores) += global_cost(i, arch).scaled(weight * i.repeat);
      }
    }
  };
  constexpr std::uint64_t kEdge = 1024, kMiddleSamples = 2048;
  if (warps <= std::max(exact_limit, 2 * kEdge + kMiddleSamples)) {
    for (std::uint64_t w = 0; w < warps; ++w) add(w, 1.0);
    return total;
  }
  for (std::uint64_t w = 0; w < kEdge; ++w) add(w, 1.0);
  for (std::uint64_t w = warps - kEdge; w < warps; ++w) add(w, 1.0);
  const std::uint64_t middle = warps - 2 * kEdge;
  const double weight = static_cast<double>(middle) / static_cast<double>(kMiddleSamples);
  for (std::uint64_t s = 0; s < kMiddleSamples; ++s) add(kEdge + s * middle / kMiddleSamples, weight);
  return total;
}

}  // namespace labbook::warp
