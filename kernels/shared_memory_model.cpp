// Lab 3's kernels (shared_memory.cuh) as warp programs for the model: every lane's shared
// address comes from the kernels' own index functions (shared_memory_indexing.h). Only the
// access an experiment is about is modelled (plus the global accesses of the reversal and
// the tile), not the filling stores every kernel starts with. The two dynamic arrays of 002
// (twoArrays*) have no model: they show byte offsets, not costs.
#include <cstdint>
#include <vector>

#include "kernel_models.h"
#include "shared_memory_indexing.h"

namespace labbook::warp {

namespace {

namespace k = labbook::kernels;

constexpr std::uint64_t kIn = 1ull << 40, kOut = 2ull << 40;

/// Warps of a 1-D launch: the measured grid, or params n (threads) and block.
std::uint64_t warps_1d(const ModelLaunch& l, unsigned& block) {
  if (l.measured) {
    block = l.measured->block[0];
    return static_cast<std::uint64_t>(l.measured->grid[0]) * ((block + kWarpSize - 1) / kWarpSize);
  }
  block = static_cast<unsigned>(l.get("block", k::kSharedThreads));
  const long long n = l.get("n", 32LL * block);
  return static_cast<std::uint64_t>((n + block - 1) / block) * ((block + kWarpSize - 1) / kWarpSize);
}

/// Lane `lane` of warp `w`: its thread index in the block, or -1 past the block's end.
long long thread_in_block(std::uint64_t w, int lane, unsigned block) {
  const unsigned shape[3] = {block, 1, 1};
  const LanePosition p = lane_position(w, lane, shape);
  return p.exists ? static_cast<long long>(p.x) : -1;
}

/// A load of element s * tid, `width` bytes each (the stride, char and double kernels).
KernelModel strided_load(int width, bool stride_param) {
  return [width, stride_param](const ModelLaunch& l) {
    unsigned block = 0;
    const std::uint64_t warps = warps_1d(l, block);
    const unsigned s = stride_param ? static_cast<unsigned>(l.get("s")) : 1u;
    return ModelledKernel{warps, [=](std::uint64_t w, std::vector<WarpAccess>& out) {
                            out.push_back(per_lane(Operation::Load, Space::Shared, width, [&](int lane) -> long long {
                              const long long t = thread_in_block(w, lane, block);
                              return t < 0 ? -1 : static_cast<long long>(k::strided_element(static_cast<unsigned>(t), s)) * width;
                            }));
                          }};
  };
}

/// Member loads of items[tid], `size` bytes per item: one access per member (offset, width).
KernelModel struct_members(int size, std::vector<std::pair<int, int>> members) {
  return [size, members](const ModelLaunch& l) {
    unsigned block = 0;
    const std::uint64_t warps = warps_1d(l, block);
    return ModelledKernel{warps, [=](std::uint64_t w, std::vector<WarpAccess>& out) {
                            for (const auto& [offset, width] : members)
                              out.push_back(per_lane(Operation::Load, Space::Shared, width, [&](int lane) -> long long {
                                const long long t = thread_in_block(w, lane, block);
                                return t < 0 ? -1 : t * size + offset;
                              }));
                          }};
  };
}

/// Each thread reading its own element of one or more arrays kSplitReads times (the double
/// kernel: one array of 8-byte elements; the hi/lo kernel: two int arrays, the second after
/// the first). Every read of an array costs the same, so it is listed once with its count.
KernelModel own_element_reads(std::vector<std::pair<long long, int>> arrays) {   // (byte offset, element size)
  return [arrays](const ModelLaunch& l) {
    unsigned block = 0;
    const std::uint64_t warps = warps_1d(l, block);
    return ModelledKernel{warps, [=](std::uint64_t w, std::vector<WarpAccess>& out) {
                            for (const auto& [base, width] : arrays) {
                              WarpAccess a = per_lane(Operation::Load, Space::Shared, width, [&](int lane) -> long long {
                                const long long t = thread_in_block(w, lane, block);
                                return t < 0 ? -1 : base + t * width;
                              });
                              a.repeat = k::kSplitReads;
                              out.push_back(a);
                            }
                          }};
  };
}

/// The throughput kernel: per round, load j of thread tid at word bandwidth_word(tid, j, s);
/// every round reads the same words, so each load is listed once with kBandwidthRounds.
ModelledKernel bandwidth(const ModelLaunch& l) {
  ModelLaunch launch = l;
  launch.params.emplace("block", k::kBandwidthThreads);
  unsigned block = 0;
  const std::uint64_t warps = warps_1d(launch, block);
  const unsigned s = static_cast<unsigned>(l.get("s"));
  return {warps, [=](std::uint64_t w, std::vector<WarpAccess>& out) {
            for (unsigned j = 0; j < k::kBandwidthLoadsPerRound; ++j) {
              WarpAccess a = per_lane(Operation::Load, Space::Shared, 4, [&](int lane) -> long long {
                const long long t = thread_in_block(w, lane, block);
                return t < 0 ? -1 : 4LL * k::bandwidth_word(static_cast<unsigned>(t), j, s);
              });
              a.repeat = k::kBandwidthRounds;
              out.push_back(a);
            }
          }};
}

ModelledKernel broadcast(const ModelLaunch& l) {
  unsigned block = 0;
  const std::uint64_t warps = warps_1d(l, block);
  return {warps, [=](std::uint64_t w, std::vector<WarpAccess>& out) {
            out.push_back(per_lane(Operation::Load, Space::Shared, 4, [&](int lane) -> long long {
              return thread_in_block(w, lane, block) < 0 ? -1 : 0;
            }));
          }};
}

/// reverseArray_multiblock: global loads in order, stores reversed within the mirrored block;
/// the shared version reverses in shared memory and stores in order.
KernelModel reverse(bool through_shared) {
  return [through_shared](const ModelLaunch& l) {
    unsigned block = 0;
    const std::uint64_t warps = warps_1d(l, block);
    const std::uint64_t warps_per_block = (block + kWarpSize - 1) / kWarpSize;
    const std::uint64_t blocks = warps / warps_per_block;
    return ModelledKernel{warps, [=](std::uint64_t w, std::vector<WarpAccess>& out) {
                            const std::uint64_t b = w / warps_per_block;
                            const long long in_offset = static_cast<long long>(b * block);
                            const long long out_offset =
                                static_cast<long long>(k::reversed_block(static_cast<unsigned>(b), static_cast<unsigned>(blocks))) * block;
                            auto thread = [&](int lane) { return thread_in_block(w, lane, block); };
                            auto rev = [&](int lane) -> long long {
                              const long long t = thread(lane);
                              return t < 0 ? -1 : k::reversed_thread(static_cast<unsigned>(t), block);
                            };
                            auto in_order = [&](int lane) { return thread(lane); };
                            out.push_back(per_lane(Operation::Load, Space::Global, 4, [&](int lane) -> long long {
                              const long long t = in_order(lane);
                              return t < 0 ? -1 : static_cast<long long>(kIn) + 4 * (in_offset + t);
                            }));
                            if (through_shared) {
                              out.push_back(per_lane(Operation::Store, Space::Shared, 4, [&](int lane) -> long long {
                                const long long r = rev(lane);
                                return r < 0 ? -1 : 4 * r;
                              }));
                              out.push_back(per_lane(Operation::Load, Space::Shared, 4, [&](int lane) -> long long {
                                const long long t = in_order(lane);
                                return t < 0 ? -1 : 4 * t;
                              }));
                            }
                            // The simple version writes reversed; the shared one in order.
                            out.push_back(per_lane(Operation::Store, Space::Global, 4, [&](int lane) -> long long {
                              const long long t = through_shared ? in_order(lane) : rev(lane);
                              return t < 0 ? -1 : static_cast<long long>(kOut) + 4 * (out_offset + t);
                            }));
                          }};
  };
}

/// tileColumnRead<Pitch>: 32 x 8 threads per tile, four rows each; global rows in and out,
/// the tile written by rows and read by columns.
KernelModel tile(unsigned pitch) {
  return [pitch](const ModelLaunch& l) {
    const unsigned shape[3] = {k::kTile, k::kTileRows, 1};
    std::uint64_t tiles_x = 0, tiles = 0;
    if (l.measured) {
      tiles_x = l.measured->grid[0];
      tiles = tiles_x * l.measured->grid[1];
    } else {
      tiles_x = static_cast<std::uint64_t>(l.get("n")) / k::kTile;
      tiles = tiles_x * tiles_x;
    }
    const unsigned n = static_cast<unsigned>(tiles_x * k::kTile);
    const std::uint64_t warps_per_tile = k::kTile * k::kTileRows / kWarpSize;
    return ModelledKernel{tiles * warps_per_tile, [=](std::uint64_t w, std::vector<WarpAccess>& out) {
                            const std::uint64_t t = w / warps_per_tile;
                            const unsigned bx = static_cast<unsigned>(t % tiles_x), by = static_cast<unsigned>(t / tiles_x);
                            auto pos = [&](int lane) { return lane_position(w, lane, shape); };
                            for (unsigned r = 0; r < k::kTile; r += k::kTileRows) {
                              auto global = [&](int lane) -> long long {
                                const LanePosition p = pos(lane);
                                return 4LL * ((by * k::kTile + p.y + r) * static_cast<long long>(n) + bx * k::kTile + p.x);
                              };
                              out.push_back(per_lane(Operation::Load, Space::Global, 4, [&](int lane) { return static_cast<long long>(kIn) + global(lane); }));
                              out.push_back(per_lane(Operation::Store, Space::Shared, 4, [&](int lane) -> long long {
                                const LanePosition p = pos(lane);
                                return 4LL * k::tile_word(p.y + r, p.x, pitch);
                              }));
                            }
                            for (unsigned r = 0; r < k::kTile; r += k::kTileRows) {
                              out.push_back(per_lane(Operation::Load, Space::Shared, 4, [&](int lane) -> long long {
                                const LanePosition p = pos(lane);
                                return 4LL * k::tile_word(p.x, p.y + r, pitch);
                              }));
                              out.push_back(per_lane(Operation::Store, Space::Global, 4, [&](int lane) -> long long {
                                const LanePosition p = pos(lane);
                                return static_cast<long long>(kOut) + 4LL * ((by * k::kTile + p.y + r) * static_cast<long long>(n) + bx * k::kTile + p.x);
                              }));
                            }
                          }};
  };
}

}  // namespace

void register_shared_memory_model(KernelModels& models) {
  models.add("sharedStride", strided_load(4, true));
  models.add("sharedChar", strided_load(1, true));
  models.add("sharedDouble", strided_load(8, false));
  models.add("sharedStructXYZ", struct_members(12, {{0, 4}, {4, 4}, {8, 4}}));
  models.add("sharedStructXY", struct_members(8, {{0, 4}, {4, 4}}));
  models.add("sharedStructFloatChar", struct_members(8, {{0, 4}, {4, 1}}));
  models.add("sharedBroadcast", broadcast);
  models.add("sharedDoubleReads", own_element_reads({{0, 8}}));
  models.add("sharedDoubleHiLo", own_element_reads({{0, 4}, {4LL * k::kSharedThreads, 4}}));
  models.add("sharedBandwidth", bandwidth);
  models.add("reverseArrayBlock", reverse(false));
  models.add("reverseArrayBlockShared", reverse(true));
  models.add("tileColumnRead32", tile(32));
  models.add("tileColumnRead33", tile(33));
}

}  // namespace labbook::warp
