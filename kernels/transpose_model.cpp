// Lab 5's transpose kernels (transpose.cuh) as warp programs for the model: each lane's
// addresses come from the kernels' own index functions (transpose_indexing.h). Global
// accesses only, plus the tiled kernel's shared tile.
#include <cstdint>
#include <functional>
#include <vector>

#include "kernel_models.h"
#include "transpose_indexing.h"

namespace labbook::warp {

namespace {

namespace k = labbook::kernels;

constexpr std::uint64_t kIn = 1ull << 40, kOut = 2ull << 40;

/// A launch's geometry: the measured grid and block, or the lab data's block_x, block_y
/// (16 x 16 by default, the source's) with the grid the program computes from nx, ny.
struct Geometry {
  unsigned nx, ny, bdx, bdy, gx, gy;
  std::uint64_t warps_per_block;
  std::uint64_t warps() const { return static_cast<std::uint64_t>(gx) * gy * warps_per_block; }
};

Geometry geometry(const ModelLaunch& l, unsigned columns_per_thread, unsigned fixed_bdx = 0, unsigned fixed_bdy = 0,
                  unsigned tile = 0) {
  Geometry g{};
  g.nx = static_cast<unsigned>(l.get("nx"));
  g.ny = static_cast<unsigned>(l.get("ny"));
  if (l.measured) {
    g.bdx = l.measured->block[0], g.bdy = l.measured->block[1];
    g.gx = l.measured->grid[0], g.gy = l.measured->grid[1];
  } else {
    g.bdx = fixed_bdx ? fixed_bdx : static_cast<unsigned>(l.get("block_x", 16));
    g.bdy = fixed_bdy ? fixed_bdy : static_cast<unsigned>(l.get("block_y", 16));
    const unsigned across = tile ? tile : g.bdx * columns_per_thread, down = tile ? tile : g.bdy;
    g.gx = (g.nx + across - 1) / across;
    g.gy = (g.ny + down - 1) / down;
  }
  g.warps_per_block = (static_cast<std::uint64_t>(g.bdx) * g.bdy + kWarpSize - 1) / kWarpSize;
  return g;
}

/// One 4-byte access per lane at base + 4 * index(lane), or none where index returns -1.
WarpAccess floats(Operation op, Space space, std::uint64_t base, const std::function<long long(int)>& index) {
  return per_lane(op, space, 4, [&](int lane) -> long long {
    const long long i = index(lane);
    return i < 0 ? -1 : static_cast<long long>(base) + 4 * i;
  });
}

/// What a thread of the simple kernels reads and writes: (read index, write index) of its
/// element, given the element's column and row.
using Mapping = std::function<std::pair<unsigned long long, unsigned long long>(unsigned ix, unsigned iy, const Geometry&)>;

enum class Order { Plain, Diagonal, Unroll4 };

KernelModel simple(Mapping mapping, Order order) {
  return [mapping, order](const ModelLaunch& l) {
    const Geometry g = geometry(l, order == Order::Unroll4 ? 4 : 1);
    return ModelledKernel{g.warps(), [g, mapping, order](std::uint64_t w, std::vector<WarpAccess>& out) {
                            const unsigned shape[3] = {g.bdx, g.bdy, 1};
                            const std::uint64_t b = w / g.warps_per_block;
                            unsigned bx = static_cast<unsigned>(b % g.gx), by = static_cast<unsigned>(b / g.gx);
                            if (order == Order::Diagonal) {
                              const k::Tile t = k::diagonal_tile(bx, by, g.gx, g.gy);
                              bx = t.x, by = t.y;
                            }
                            const unsigned copies = order == Order::Unroll4 ? 4 : 1;
                            for (unsigned c = 0; c < copies; ++c) {
                              // -1 for lanes past the block or outside the kernel's guard.
                              auto element = [&](int lane, bool write) -> long long {
                                const LanePosition p = lane_position(w, lane, shape);
                                if (!p.exists) return -1;
                                const k::Element e = order == Order::Unroll4
                                                         ? k::unroll4_element_of(bx, by, g.bdx, g.bdy, p.x, p.y)
                                                         : k::element_of(bx, by, g.bdx, g.bdy, p.x, p.y);
                                const bool inside = order == Order::Unroll4 ? e.ix + 3 * g.bdx < g.nx && e.iy < g.ny
                                                                            : e.ix < g.nx && e.iy < g.ny;
                                if (!inside) return -1;
                                const auto [read, written] = mapping(e.ix + c * g.bdx, e.iy, g);
                                return static_cast<long long>(write ? written : read);
                              };
                              out.push_back(floats(Operation::Load, Space::Global, kIn, [&](int lane) { return element(lane, false); }));
                              out.push_back(floats(Operation::Store, Space::Global, kOut, [&](int lane) { return element(lane, true); }));
                            }
                          }};
  };
}

std::pair<unsigned long long, unsigned long long> copy_row(unsigned ix, unsigned iy, const Geometry& g) {
  return {k::at(ix, iy, g.nx), k::at(ix, iy, g.nx)};
}
std::pair<unsigned long long, unsigned long long> copy_col(unsigned ix, unsigned iy, const Geometry& g) {
  return {k::at(iy, ix, g.ny), k::at(iy, ix, g.ny)};
}
std::pair<unsigned long long, unsigned long long> read_rows(unsigned ix, unsigned iy, const Geometry& g) {
  return {k::at(ix, iy, g.nx), k::at(iy, ix, g.ny)};
}
std::pair<unsigned long long, unsigned long long> read_columns(unsigned ix, unsigned iy, const Geometry& g) {
  return {k::at(iy, ix, g.ny), k::at(ix, iy, g.nx)};
}

/// transposeTiled: 32 x 8 threads, 4 rows each; rows of `in` to the tile, tile columns to
/// rows of `out`.
ModelledKernel tiled(const ModelLaunch& l) {
  const Geometry g = geometry(l, 1, k::kTransposeTile, k::kTransposeTileRows, k::kTransposeTile);
  return {g.warps(), [g](std::uint64_t w, std::vector<WarpAccess>& out) {
            const unsigned shape[3] = {g.bdx, g.bdy, 1};
            const std::uint64_t b = w / g.warps_per_block;
            const unsigned bx = static_cast<unsigned>(b % g.gx), by = static_cast<unsigned>(b / g.gx);
            auto pos = [&](int lane) { return lane_position(w, lane, shape); };
            for (unsigned j = 0; j < k::kTransposeTile; j += k::kTransposeTileRows) {
              out.push_back(floats(Operation::Load, Space::Global, kIn, [&](int lane) -> long long {
                const LanePosition p = pos(lane);
                const unsigned x = bx * k::kTransposeTile + p.x, y = by * k::kTransposeTile + p.y + j;
                return x < g.nx && y < g.ny ? static_cast<long long>(k::at(x, y, g.nx)) : -1;
              }));
              out.push_back(floats(Operation::Store, Space::Shared, 0, [&](int lane) -> long long {
                const LanePosition p = pos(lane);
                return (p.y + j) * k::kTransposeTilePitch + p.x;
              }));
            }
            for (unsigned j = 0; j < k::kTransposeTile; j += k::kTransposeTileRows) {
              out.push_back(floats(Operation::Load, Space::Shared, 0, [&](int lane) -> long long {
                const LanePosition p = pos(lane);
                return p.x * k::kTransposeTilePitch + p.y + j;
              }));
              out.push_back(floats(Operation::Store, Space::Global, kOut, [&](int lane) -> long long {
                const LanePosition p = pos(lane);
                const unsigned x = by * k::kTransposeTile + p.x, y = bx * k::kTransposeTile + p.y + j;
                return x < g.ny && y < g.nx ? static_cast<long long>(k::at(x, y, g.ny)) : -1;
              }));
            }
          }};
}

}  // namespace

void register_transpose_model(KernelModels& models) {
  models.add("copyRow", simple(copy_row, Order::Plain));
  models.add("copyCol", simple(copy_col, Order::Plain));
  models.add("transposeNaiveRow", simple(read_rows, Order::Plain));
  models.add("transposeNaiveCol", simple(read_columns, Order::Plain));
  models.add("transposeUnroll4Row", simple(read_rows, Order::Unroll4));
  models.add("transposeUnroll4Col", simple(read_columns, Order::Unroll4));
  models.add("transposeDiagonalRow", simple(read_rows, Order::Diagonal));
  models.add("transposeDiagonalCol", simple(read_columns, Order::Diagonal));
  models.add("transposeTiled", tiled);
}

}  // namespace labbook::warp
