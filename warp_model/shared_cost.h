#pragma once
/// @file
/// What one warp-level shared-memory access costs: wavefronts (serialized passes through
/// the banks), the ideal number for its width, and the worst bank conflict degree.
#include <cstdint>

#include "architecture.h"
#include "warp_access.h"

namespace labbook::warp {

struct SharedCost {
  double requests = 0;
  double wavefronts = 0;
  double ideal_wavefronts = 0;   ///< with no conflict: one per group of lanes served together
  int degree = 0;                       ///< worst n-way conflict in one group (1: none)

  SharedCost& operator+=(const SharedCost& o);
  SharedCost scaled(double factor) const { return {requests * factor, wavefronts * factor, ideal_wavefronts * factor, degree}; }
  /// nvprof-style bank conflicts: wavefronts beyond the ideal.
  double conflicts() const { return wavefronts - ideal_wavefronts; }
};

SharedCost shared_cost(const WarpAccess& access, const Architecture& arch);

}  // namespace labbook::warp
