#pragma once
/// @file
/// Lab 4's kernels as warp programs for the model: the addresses come from the kernels' own
/// index functions (kernels/global_memory_indexing.h), compiled here for the host.
#include <cstdint>
#include <string>

#include "kernel_cost.h"

namespace labbook::warp {

/// One launch of a lab 4 kernel.
struct Lab4Launch {
  std::string kernel;       ///< readSegment, readSegmentUncached, writeSegment, simpleMathAoS,
                            ///< simpleMathSoA, readSegmentUnroll
  std::uint64_t elements = 0;   ///< n: floats per array (points for simpleMath*)
  unsigned block = 512;
  unsigned offset = 0;
  unsigned unroll = 1;      ///< readSegmentUnroll only
};

/// Warps the launch runs (its grid, as main.cu computes it).
std::uint64_t warps_of(const Lab4Launch&);

/// The launch's instructions per warp. Throws labbook::Error for an unknown kernel.
WarpProgram program_of(const Lab4Launch&);

/// kernel_cost() of the launch on `arch`.
KernelCost lab4_kernel_cost(const Lab4Launch&, const Architecture& arch);

}  // namespace labbook::warp
