#include "lab4_kernels.h"

#include "global_memory_indexing.h"
#include "labbook/model/error.h"

namespace labbook::warp {

namespace k = labbook::kernels;

namespace {

// Arrays of a launch, far apart and aligned, as cudaMalloc gives them (256-byte aligned).
constexpr std::uint64_t kA = 1ull << 40, kB = 2ull << 40, kC = 3ull << 40;

struct Lane {
  unsigned block, thread;
};

Lane lane_of(std::uint64_t warp, int lane, unsigned block_dim) {
  const std::uint64_t tid = warp * kWarpSize + static_cast<std::uint64_t>(lane);
  return {static_cast<unsigned>(tid / block_dim), static_cast<unsigned>(tid % block_dim)};
}

/// A 4-byte access per lane: `element(lane)` gives the float index, or -1 when inactive.
template <typename Element>
WarpAccess floats(Operation op, std::uint64_t base, const Element& element) {
  WarpAccess a;
  a.op = op;
  a.width = 4;
  for (int l = 0; l < kWarpSize; ++l) {
    const long long e = element(l);
    a.active[static_cast<std::size_t>(l)] = e >= 0;
    a.address[static_cast<std::size_t>(l)] = e >= 0 ? base + 4 * static_cast<std::uint64_t>(e) : 0;
  }
  return a;
}

std::uint64_t grid_of(const Lab4Launch& l) {
  const std::uint64_t per_block = static_cast<std::uint64_t>(l.block) * (l.kernel == "readSegmentUnroll" ? l.unroll : 1);
  return (l.elements + per_block - 1) / per_block;
}

}  // namespace

std::uint64_t warps_of(const Lab4Launch& l) { return grid_of(l) * l.block / kWarpSize; }

WarpProgram program_of(const Lab4Launch& launch) {
  const Lab4Launch l = launch;
  const long long n = static_cast<long long>(l.elements);
  if (l.kernel == "readSegment" || l.kernel == "readSegmentUncached") {
    return [l, n](std::uint64_t w, std::vector<WarpAccess>& out) {
      auto read = [&](int lane) -> long long {
        const Lane t = lane_of(w, lane, l.block);
        const unsigned kk = k::read_segment_index(k::thread_index(t.block, l.block, t.thread), l.offset);
        return kk < n ? static_cast<long long>(kk) : -1LL;
      };
      out.push_back(floats(Operation::Load, kA, read));
      out.push_back(floats(Operation::Load, kB, read));
      out.push_back(floats(Operation::Store, kC, [&](int lane) -> long long {
        const Lane t = lane_of(w, lane, l.block);
        return read(lane) >= 0 ? static_cast<long long>(k::thread_index(t.block, l.block, t.thread)) : -1LL;
      }));
    };
  }
  if (l.kernel == "writeSegment") {
    return [l, n](std::uint64_t w, std::vector<WarpAccess>& out) {
      auto index = [&](int lane) -> long long {
        const Lane t = lane_of(w, lane, l.block);
        return k::thread_index(t.block, l.block, t.thread);
      };
      auto active = [&](int lane) {
        return k::write_segment_index(static_cast<unsigned>(index(lane)), l.offset) < n;
      };
      out.push_back(floats(Operation::Load, kA, [&](int lane) -> long long { return active(lane) ? index(lane) : -1; }));
      out.push_back(floats(Operation::Load, kB, [&](int lane) -> long long { return active(lane) ? index(lane) : -1; }));
      out.push_back(floats(Operation::Store, kC, [&](int lane) -> long long {
        return active(lane) ? static_cast<long long>(k::write_segment_index(static_cast<unsigned>(index(lane)), l.offset)) : -1LL;
      }));
    };
  }
  if (l.kernel == "simpleMathAoS" || l.kernel == "simpleMathSoA") {
    // AoS: x and y of point i are floats 2i and 2i+1, read and written one float at a time
    // (the compiler's code, as the measured 50 % shows). SoA: x[i] and y[i] = floats i and n + i.
    const bool aos = l.kernel == "simpleMathAoS";
    return [l, n, aos](std::uint64_t w, std::vector<WarpAccess>& out) {
      auto point = [&](int lane) -> long long {
        const Lane t = lane_of(w, lane, l.block);
        const long long i = k::thread_index(t.block, l.block, t.thread);
        return i < n ? i : -1;
      };
      auto x = [&](int lane) -> long long { const long long i = point(lane); return i < 0 ? -1 : aos ? 2 * i : i; };
      auto y = [&](int lane) -> long long { const long long i = point(lane); return i < 0 ? -1 : aos ? 2 * i + 1 : n + i; };
      out.push_back(floats(Operation::Load, kA, x));
      out.push_back(floats(Operation::Load, kA, y));
      out.push_back(floats(Operation::Store, kC, x));
      out.push_back(floats(Operation::Store, kC, y));
    };
  }
  if (l.kernel == "readSegmentUnroll") {
    return [l, n](std::uint64_t w, std::vector<WarpAccess>& out) {
      auto index = [&](int lane, unsigned u) -> unsigned {
        const Lane t = lane_of(w, lane, l.block);
        return k::unrolled_index(t.block, l.block, t.thread, l.unroll, u);
      };
      for (unsigned u = 0; u < l.unroll; ++u) {
        auto read = [&](int lane) -> long long {
          const unsigned kk = k::read_segment_index(index(lane, u), l.offset);
          return kk < n ? static_cast<long long>(kk) : -1LL;
        };
        out.push_back(floats(Operation::Load, kA, read));
        out.push_back(floats(Operation::Load, kB, read));
      }
      for (unsigned u = 0; u < l.unroll; ++u)
        out.push_back(floats(Operation::Store, kC, [&](int lane) -> long long {
          return k::read_segment_index(index(lane, u), l.offset) < n ? static_cast<long long>(index(lane, u)) : -1LL;
        }));
    };
  }
  throw Error("the warp model has no lab 4 kernel '" + l.kernel + "'");
}

KernelCost lab4_kernel_cost(const Lab4Launch& l, const Architecture& arch) {
  return kernel_cost(warps_of(l), program_of(l), arch);
}

}  // namespace labbook::warp
