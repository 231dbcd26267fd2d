#include "kernel_models.h"

#include "labbook/model/error.h"

namespace labbook::warp {

long long ModelLaunch::get(const std::string& name, long long fallback) const {
  const auto it = params.find(name);
  return it == params.end() ? fallback : it->second;
}

long long ModelLaunch::get(const std::string& name) const {
  const auto it = params.find(name);
  if (it == params.end()) throw Error("the kernel model needs the parameter '" + name + "'");
  return it->second;
}

void KernelModels::add(const std::string& kernel, KernelModel model) {
  if (!models_.emplace(kernel, std::move(model)).second)
    throw Error("the warp model has two kernels named '" + kernel + "'");
}

const KernelModel& KernelModels::find(const std::string& kernel) const {
  const auto it = models_.find(kernel);
  if (it != models_.end()) return it->second;
  std::string known;
  for (const auto& [name, model] : models_) known += (known.empty() ? "" : ", ") + name;
  throw Error("the warp model has no kernel '" + kernel + "' (known: " + known + ")");
}

std::vector<std::string> KernelModels::names() const {
  std::vector<std::string> out;
  for (const auto& [name, model] : models_) out.push_back(name);
  return out;
}

KernelCost modelled_cost(const std::string& kernel, const ModelLaunch& launch, const Architecture& arch) {
  const ModelledKernel k = kernel_models().find(kernel)(launch);
  KernelCost cost = kernel_cost(k.warps, k.program, arch);
  cost.counts = k.counts;
  return cost;
}

LanePosition lane_position(std::uint64_t warp, int lane, const unsigned block[3]) {
  const std::uint64_t threads_per_block = static_cast<std::uint64_t>(block[0]) * block[1] * block[2];
  const std::uint64_t warps_per_block = (threads_per_block + kWarpSize - 1) / kWarpSize;
  const std::uint64_t t = (warp % warps_per_block) * kWarpSize + static_cast<std::uint64_t>(lane);
  LanePosition p;
  p.block = warp / warps_per_block;
  p.x = static_cast<unsigned>(t % block[0]);
  p.y = static_cast<unsigned>(t / block[0] % block[1]);
  p.z = static_cast<unsigned>(t / (static_cast<std::uint64_t>(block[0]) * block[1]));
  p.exists = t < threads_per_block;
  return p;
}

}  // namespace labbook::warp
