// Lab 6's matrix products (matmul.cuh) as warp programs for the model: each lane's
// addresses come from the kernels' own index functions (matmul_indexing.h).
//
// Parameters: n (B.width = C.width), m (A.height, default n), k (A.width, default n) and
// element_bytes (4 for float, 8 for double). On the measured GPU the launch's grid and block
// come from the measurement, otherwise the program's: 16 x 16 threads, one per element of C.
//
// The loops over A's row and B's column run k (or k / 16) times. Iterations whose addresses
// differ by whole 128-byte lines cost the same on every architecture the model knows (sectors,
// lines, segments and banks all repeat), so each loop is listed once per class of iterations
// with the class's count (WarpAccess::repeat) instead of k times.
#include <algorithm>
#include <cstdint>
#include <map>
#include <numeric>
#include <string>
#include <vector>

#include "kernel_models.h"
#include "labbook/model/error.h"
#include "matmul_indexing.h"

namespace labbook::warp {

namespace {

namespace k = labbook::kernels;

// Where the model puts the matrices: far apart, aligned as cudaMalloc aligns.
constexpr std::uint64_t kA = 1ull << 40, kB = 2ull << 40, kC = 3ull << 40;
constexpr std::uint64_t kLineBytes = 128;

/// C (m x n) = A (m x k) B (k x n) in elements of `bytes` bytes, and the launch.
struct Product {
  int m = 0, n = 0, k = 0, bytes = 0;
  unsigned gx = 0, gy = 0, bdx = 0, bdy = 0;
  std::uint64_t warps_per_block = 0;
  std::uint64_t warps() const { return static_cast<std::uint64_t>(gx) * gy * warps_per_block; }
  std::uint64_t threads() const { return static_cast<std::uint64_t>(gx) * gy * bdx * bdy; }
};

Product product_of(const ModelLaunch& l) {
  Product p;
  p.n = static_cast<int>(l.get("n"));
  p.m = static_cast<int>(l.get("m", p.n));
  p.k = static_cast<int>(l.get("k", p.n));
  p.bytes = static_cast<int>(l.get("element_bytes"));
  if (p.bytes != 4 && p.bytes != 8) throw Error("the matrix products' model needs element_bytes = 4 or 8");
  if (p.m <= 0 || p.n <= 0 || p.k <= 0) throw Error("the matrix products' model needs positive m, n and k");
  if (l.measured) {
    p.gx = l.measured->grid[0], p.gy = l.measured->grid[1];
    p.bdx = l.measured->block[0], p.bdy = l.measured->block[1];
  } else {
    p.bdx = p.bdy = k::kBlockSize;
    p.gx = static_cast<unsigned>(k::tiles(p.n));
    p.gy = static_cast<unsigned>(k::tiles(p.m));
  }
  p.warps_per_block = (static_cast<std::uint64_t>(p.bdx) * p.bdy + kWarpSize - 1) / kWarpSize;
  return p;
}

/// FLOPs by precision: the kernel's multiply-adds count two each, as nvprof's flop_count_*.
std::map<std::string, double> flop_counts(const Product& p, double flops) {
  return {{"flop_count_sp", p.bytes == 4 ? flops : 0.0}, {"flop_count_dp", p.bytes == 8 ? flops : 0.0}};
}

/// For a loop of `count` iterations whose addresses move by `step` bytes per iteration:
/// emit(i, repeat) for each class of iterations a whole number of 128-byte lines apart,
/// i being the first iteration of the class and `repeat` how many it stands for.
template <typename Emit>
void per_class(int count, std::uint64_t step, const Emit& emit) {
  const std::uint64_t r = step % kLineBytes;
  const int period = static_cast<int>(r == 0 ? 1 : kLineBytes / std::gcd(r, kLineBytes));
  const int classes = std::min(count, period);
  for (int i = 0; i < classes; ++i) emit(i, static_cast<double>((count - i + period - 1) / period));
}

/// One access of `bytes` per lane at base + bytes * offset(lane), or none where offset is -1.
template <typename Offset>
WarpAccess elements(Operation op, Space space, int bytes, std::uint64_t base, double repeat, const Offset& offset) {
  WarpAccess a = per_lane(op, space, bytes, [&](int lane) -> long long {
    const long long o = offset(lane);
    return o < 0 ? -1 : static_cast<long long>(base) + bytes * o;
  });
  a.repeat = repeat;
  return a;
}

/// Block and thread coordinates of warp w's lanes.
struct WarpLanes {
  unsigned bx = 0, by = 0;
  LanePosition lane[kWarpSize];
};

WarpLanes lanes_of(const Product& p, std::uint64_t w) {
  WarpLanes out;
  const unsigned shape[3] = {p.bdx, p.bdy, 1};
  const std::uint64_t b = w / p.warps_per_block;
  out.bx = static_cast<unsigned>(b % p.gx);
  out.by = static_cast<unsigned>(b / p.gx);
  for (int l = 0; l < kWarpSize; ++l) out.lane[l] = lane_position(w, l, shape);
  return out;
}

/// MatMulKernel: thread (row, col) inside C reads A(row, e) and B(e, col) for every e, then
/// writes C(row, col).
ModelledKernel classic(const ModelLaunch& launch) {
  const Product p = product_of(launch);
  ModelledKernel out{p.warps(), [p](std::uint64_t w, std::vector<WarpAccess>& program) {
                       const WarpLanes wl = lanes_of(p, w);
                       int row[kWarpSize], col[kWarpSize];
                       bool active[kWarpSize];
                       for (int l = 0; l < kWarpSize; ++l) {
                         row[l] = k::global_index(static_cast<int>(wl.by), static_cast<int>(p.bdy), static_cast<int>(wl.lane[l].y));
                         col[l] = k::global_index(static_cast<int>(wl.bx), static_cast<int>(p.bdx), static_cast<int>(wl.lane[l].x));
                         active[l] = wl.lane[l].exists && k::inside(p.m, p.n, row[l], col[l]);
                       }
                       const auto bytes = static_cast<std::uint64_t>(p.bytes);
                       per_class(p.k, bytes, [&](int e, double repeat) {
                         program.push_back(elements(Operation::Load, Space::Global, p.bytes, kA, repeat, [&](int l) {
                           return active[l] ? k::element_offset(p.k, row[l], e) : -1;
                         }));
                       });
                       per_class(p.k, bytes * static_cast<std::uint64_t>(p.n), [&](int e, double repeat) {
                         program.push_back(elements(Operation::Load, Space::Global, p.bytes, kB, repeat, [&](int l) {
                           return active[l] ? k::element_offset(p.n, e, col[l]) : -1;
                         }));
                       });
                       program.push_back(elements(Operation::Store, Space::Global, p.bytes, kC, 1, [&](int l) {
                         return active[l] ? k::element_offset(p.n, row[l], col[l]) : -1;
                       }));
                     }};
  out.counts = flop_counts(p, 2.0 * p.m * p.n * p.k);
  return out;
}

/// MatMulSharedKernel: per tile step, one element of A's and of B's tile to shared memory
/// (0 outside a cut tile), then 16 multiply-adds from As and Bs; finally C's element.
ModelledKernel shared(const ModelLaunch& launch) {
  const Product p = product_of(launch);
  const int steps = k::tiles(p.k);
  ModelledKernel out{p.warps(), [p, steps](std::uint64_t w, std::vector<WarpAccess>& program) {
                       const WarpLanes wl = lanes_of(p, w);
                       const int by = static_cast<int>(wl.by), bx = static_cast<int>(wl.bx);
                       const auto exists = [&](int l) { return wl.lane[l].exists; };
                       const auto ty = [&](int l) { return static_cast<int>(wl.lane[l].y); };
                       const auto tx = [&](int l) { return static_cast<int>(wl.lane[l].x); };
                       const auto bytes = static_cast<std::uint64_t>(p.bytes);
                       // Global loads of A's tile (by, step) and B's tile (step, bx): the steps
                       // over whole tiles in classes, a cut last tile on its own.
                       const int whole = p.k % k::kBlockSize == 0 ? steps : steps - 1;
                       auto load_a = [&](int step, double repeat) {
                         program.push_back(elements(Operation::Load, Space::Global, p.bytes, kA, repeat, [&](int l) {
                           const bool in = exists(l) && k::inside(k::tile_side(p.m, by), k::tile_side(p.k, step), ty(l), tx(l));
                           return in ? k::tile_offset(p.k, by, step) + k::element_offset(p.k, ty(l), tx(l)) : -1;
                         }));
                       };
                       auto load_b = [&](int step, double repeat) {
                         program.push_back(elements(Operation::Load, Space::Global, p.bytes, kB, repeat, [&](int l) {
                           const bool in = exists(l) && k::inside(k::tile_side(p.k, step), k::tile_side(p.n, bx), ty(l), tx(l));
                           return in ? k::tile_offset(p.n, step, bx) + k::element_offset(p.n, ty(l), tx(l)) : -1;
                         }));
                       };
                       per_class(whole, bytes * k::kBlockSize, load_a);
                       per_class(whole, bytes * k::kBlockSize * static_cast<std::uint64_t>(p.n), load_b);
                       if (whole < steps) load_a(whole, 1), load_b(whole, 1);
                       // Shared memory: As at 0, Bs after it; the same addresses every step.
                       const long long tile = k::kBlockSize * k::kBlockSize;
                       const auto shared_at = [&](Operation op, long long base, auto index) {
                         program.push_back(elements(op, Space::Shared, p.bytes, 0, steps, [&](int l) {
                           return exists(l) ? base + index(l) : -1;
                         }));
                       };
                       shared_at(Operation::Store, 0, [&](int l) { return k::element_offset(k::kBlockSize, ty(l), tx(l)); });
                       shared_at(Operation::Store, tile, [&](int l) { return k::element_offset(k::kBlockSize, ty(l), tx(l)); });
                       for (int e = 0; e < k::kBlockSize; ++e) {
                         shared_at(Operation::Load, 0, [&](int l) { return k::element_offset(k::kBlockSize, ty(l), e); });
                         shared_at(Operation::Load, tile, [&](int l) { return k::element_offset(k::kBlockSize, e, tx(l)); });
                       }
                       program.push_back(elements(Operation::Store, Space::Global, p.bytes, kC, 1, [&](int l) {
                         const bool in = exists(l) && k::inside(k::tile_side(p.m, by), k::tile_side(p.n, bx), ty(l), tx(l));
                         return in ? k::tile_offset(p.n, by, bx) + k::element_offset(p.n, ty(l), tx(l)) : -1;
                       }));
                     }};
  // Every thread of the grid runs every step, inside C or not: a cut edge adds zeros.
  out.counts = flop_counts(p, 2.0 * static_cast<double>(p.threads()) * steps * k::kBlockSize);
  return out;
}

}  // namespace

void register_matmul_model(KernelModels& models) {
  models.add("MatMulKernel", classic);
  models.add("MatMulSharedKernel", shared);
}

}  // namespace labbook::warp
