#pragma once
/// @file
/// One warp-level memory instruction: which lanes take part and the address each touches.
#include <array>
#include <cstdint>

namespace labbook::warp {

constexpr int kWarpSize = 32;

enum class Operation { Load, Store };
enum class Space { Global, Shared };

struct WarpAccess {
  Operation op = Operation::Load;
  Space space = Space::Global;
  int width = 4;                                   ///< bytes per lane: 1, 2, 4, 8 or 16
  std::array<bool, kWarpSize> active{};            ///< lanes that execute the instruction
  std::array<std::uint64_t, kWarpSize> address{};  ///< byte address per lane (global or shared)
  /// Executions this instruction stands for: a loop's iterations that cost the same (their
  /// addresses differ by whole 128-byte lines, or not at all) are listed once with their count.
  double repeat = 1;

  bool any_active() const {
    for (bool a : active)
      if (a) return true;
    return false;
  }
};

/// One access per lane: address(lane) is the lane's byte address, or negative for a lane that
/// does not take part (inactive, or outside the kernel's bounds check).
template <typename Address>
WarpAccess per_lane(Operation op, Space space, int width, const Address& address) {
  WarpAccess a;
  a.op = op;
  a.space = space;
  a.width = width;
  for (int l = 0; l < kWarpSize; ++l) {
    const long long at = address(l);
    a.active[static_cast<std::size_t>(l)] = at >= 0;
    a.address[static_cast<std::size_t>(l)] = at >= 0 ? static_cast<std::uint64_t>(at) : 0;
  }
  return a;
}

/// Lane l active and at base + l * stride_bytes, for the first `lanes` lanes.
inline WarpAccess strided(Operation op, int width, std::uint64_t base, std::int64_t stride_bytes,
                          int lanes = kWarpSize) {
  WarpAccess a;
  a.op = op;
  a.width = width;
  for (int l = 0; l < lanes; ++l) {
    a.active[static_cast<std::size_t>(l)] = true;
    a.address[static_cast<std::size_t>(l)] = static_cast<std::uint64_t>(static_cast<std::int64_t>(base) + l * stride_bytes);
  }
  return a;
}

}  // namespace labbook::warp
