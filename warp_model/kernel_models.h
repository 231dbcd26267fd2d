#pragma once
/// @file
/// The kernels the warp model knows, by name. Each lab registers its kernels' warp programs
/// in one file next to those kernels (kernels/*_model.cpp); the build collects them
/// (cmake/AddLab.cmake), so the model's core names no lab.
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "kernel_cost.h"

namespace labbook::warp {

/// Grid and block of a launch, as CUDA's dim3.
struct LaunchShape {
  unsigned grid[3] = {1, 1, 1};
  unsigned block[3] = {1, 1, 1};
};

/// What a kernel model is asked about: named integer parameters (from the lab data and the
/// experiment's path, e.g. offset=11, n=2048) and, on the measured GPU, the launch's shape.
struct ModelLaunch {
  std::map<std::string, long long> params;
  std::optional<LaunchShape> measured;

  /// The parameter, or `fallback` when it is not set.
  long long get(const std::string& name, long long fallback) const;
  /// The parameter; throws labbook::Error naming it when it is not set.
  long long get(const std::string& name) const;
};

/// A launch as warp programs: how many warps run and what each one does, and what the
/// model knows outright about the whole launch (KernelCost::counts, e.g. its FLOPs).
struct ModelledKernel {
  std::uint64_t warps = 0;
  WarpProgram program;
  std::map<std::string, double> counts = {};
};

using KernelModel = std::function<ModelledKernel(const ModelLaunch&)>;

class KernelModels {
 public:
  /// Registers `kernel`; a second registration of one name throws labbook::Error.
  void add(const std::string& kernel, KernelModel model);
  /// Throws labbook::Error listing the known kernels when `kernel` is not registered.
  const KernelModel& find(const std::string& kernel) const;
  std::vector<std::string> names() const;

 private:
  std::map<std::string, KernelModel> models_;
};

/// Every lab's kernels (defined in the build's generated lab_models.cpp).
const KernelModels& kernel_models();

/// kernel_cost() of `kernel` launched as `launch` on `arch`.
KernelCost modelled_cost(const std::string& kernel, const ModelLaunch& launch, const Architecture& arch);

/// Lane `lane` of warp `warp` in a launch of `block` threads per block (x fastest, as CUDA
/// numbers threads): its block index (linear) and thread coordinates.
struct LanePosition {
  std::uint64_t block = 0;
  unsigned x = 0, y = 0, z = 0;
  bool exists = true;   ///< false for the lanes past the end of a block that is not whole warps
};
LanePosition lane_position(std::uint64_t warp, int lane, const unsigned block[3]);

}  // namespace labbook::warp
