// Lab 7's kernels (layouts.cuh) as warp programs for the model: every lane's address comes
// from the kernels' own index functions (layouts_indexing.h). Global accesses only: the
// texture and constant reads go through caches the model does not describe.
//
// Parameters (lab.toml, or the experiment's path): width (floats per row), height (rows),
// depth (slices, volumeScale), pitch (bytes from one row to the next; width * 4 for a linear
// array, the value cudaMallocPitch or cudaMalloc3D returned for a pitched one).
#include <cstdint>
#include <vector>

#include "kernel_models.h"
#include "layouts_indexing.h"

namespace labbook::warp {

namespace {

namespace k = labbook::kernels;

// Allocations far apart and aligned, as cudaMalloc and cudaMallocPitch give them.
constexpr std::uint64_t kIn = 1ull << 40, kOut = 2ull << 40;

struct Image {
  unsigned width, height;
  std::uint64_t pitch;
};

Image image(const ModelLaunch& l) {
  return {static_cast<unsigned>(l.get("width")), static_cast<unsigned>(l.get("height")),
          static_cast<std::uint64_t>(l.get("pitch"))};
}

/// A 2-D launch of kLayoutBlockX x kLayoutBlockY threads: the measured grid, or `grid`
/// (what the program computes from the image).
struct Grid2D {
  unsigned gx, gy, bdx, bdy;
  std::uint64_t warps_per_block;
  std::uint64_t warps() const { return static_cast<std::uint64_t>(gx) * gy * warps_per_block; }
};

Grid2D grid_2d(const ModelLaunch& l, k::Pixel grid) {
  Grid2D g{grid.x, grid.y, k::kLayoutBlockX, k::kLayoutBlockY, 0};
  if (l.measured) {
    g.gx = l.measured->grid[0], g.gy = l.measured->grid[1];
    g.bdx = l.measured->block[0], g.bdy = l.measured->block[1];
  }
  g.warps_per_block = (static_cast<std::uint64_t>(g.bdx) * g.bdy + kWarpSize - 1) / kWarpSize;
  return g;
}

/// Block (bx, by) and thread (tx, ty) of lane `lane` of warp `w`; false past the block's end.
bool thread_of(const Grid2D& g, std::uint64_t w, int lane, unsigned& bx, unsigned& by, unsigned& tx, unsigned& ty) {
  const unsigned shape[3] = {g.bdx, g.bdy, 1};
  const LanePosition p = lane_position(w, lane, shape);
  const std::uint64_t b = w / g.warps_per_block;
  bx = static_cast<unsigned>(b % g.gx), by = static_cast<unsigned>(b / g.gx), tx = p.x, ty = p.y;
  return p.exists;
}

/// A 4-byte access per lane at base + address(lane), or none where address returns -1.
template <typename Address>
WarpAccess floats(Operation op, std::uint64_t base, const Address& address) {
  return per_lane(op, Space::Global, 4, [&](int lane) -> long long {
    const long long a = address(lane);
    return a < 0 ? -1 : static_cast<long long>(base) + a;
  });
}

/// rowsScale: element (x, y) read at row_offset(y, pitch) + 4x, written at the same place.
ModelledKernel rows_scale(const ModelLaunch& l) {
  const Image im = image(l);
  const Grid2D g = grid_2d(l, {(im.width + k::kLayoutBlockX - 1) / k::kLayoutBlockX,
                               (im.height + k::kLayoutBlockY - 1) / k::kLayoutBlockY});
  return {g.warps(), [im, g](std::uint64_t w, std::vector<WarpAccess>& out) {
            auto element = [&](int lane) -> long long {
              unsigned bx, by, tx, ty;
              if (!thread_of(g, w, lane, bx, by, tx, ty)) return -1;
              const unsigned x = bx * g.bdx + tx, y = by * g.bdy + ty;
              if (x >= im.width || y >= im.height) return -1;
              return static_cast<long long>(k::row_offset(y, im.pitch) + 4ull * x);
            };
            out.push_back(floats(Operation::Load, kIn, element));
            out.push_back(floats(Operation::Store, kOut, element));
          }};
}

/// volumeScale: thread (x, y) reads and writes element x of row (y, z) for every slice z.
ModelledKernel volume_scale(const ModelLaunch& l) {
  const Image im = image(l);
  const unsigned depth = static_cast<unsigned>(l.get("depth"));
  const Grid2D g = grid_2d(l, {(im.width + k::kLayoutBlockX - 1) / k::kLayoutBlockX,
                               (im.height + k::kLayoutBlockY - 1) / k::kLayoutBlockY});
  return {g.warps(), [im, g, depth](std::uint64_t w, std::vector<WarpAccess>& out) {
            for (unsigned z = 0; z < depth; ++z) {
              auto element = [&](int lane) -> long long {
                unsigned bx, by, tx, ty;
                if (!thread_of(g, w, lane, bx, by, tx, ty)) return -1;
                const unsigned x = bx * g.bdx + tx, y = by * g.bdy + ty;
                if (x >= im.width || y >= im.height) return -1;
                return static_cast<long long>(k::volume_row_offset(y, z, im.pitch, im.height) + 4ull * x);
              };
              out.push_back(floats(Operation::Load, kIn, element));
              out.push_back(floats(Operation::Store, kOut, element));
            }
          }};
}

/// stencilGlobal: five clamped loads (centre, left, right, up, down) and the store of the
/// pixel, a warp along a row or along a column.
KernelModel stencil_global(bool by_columns) {
  return [by_columns](const ModelLaunch& l) {
    const Image im = image(l);
    const Grid2D g = grid_2d(l, k::stencil_grid(by_columns, im.width, im.height));
    return ModelledKernel{g.warps(), [im, g, by_columns](std::uint64_t w, std::vector<WarpAccess>& out) {
                            auto pixel = [&](int lane, k::Pixel& p) {
                              unsigned bx, by, tx, ty;
                              if (!thread_of(g, w, lane, bx, by, tx, ty)) return false;
                              p = k::stencil_pixel(by_columns, bx, by, tx, ty);
                              return p.x < im.width && p.y < im.height;
                            };
                            for (int point = 0; point < k::kStencilPoints; ++point)
                              out.push_back(floats(Operation::Load, kIn, [&](int lane) -> long long {
                                k::Pixel p{};
                                if (!pixel(lane, p)) return -1;
                                const unsigned x = k::clamped(static_cast<int>(p.x) + k::stencil_dx(point), im.width);
                                const unsigned y = k::clamped(static_cast<int>(p.y) + k::stencil_dy(point), im.height);
                                return static_cast<long long>(k::row_offset(y, im.pitch) + 4ull * x);
                              }));
                            out.push_back(floats(Operation::Store, kOut, [&](int lane) -> long long {
                              k::Pixel p{};
                              if (!pixel(lane, p)) return -1;
                              return static_cast<long long>(k::row_offset(p.y, im.pitch) + 4ull * p.x);
                            }));
                          }};
  };
}

}  // namespace

void register_layouts_model(KernelModels& models) {
  models.add("rowsScale", rows_scale);
  models.add("volumeScale", volume_scale);
  models.add("stencilGlobalRows", stencil_global(false));
  models.add("stencilGlobalColumns", stencil_global(true));
}

}  // namespace labbook::warp
