// Lab 4's kernels (global_memory.cuh) as warp programs for the model: the addresses come
// from the kernels' own index functions (global_memory_indexing.h), compiled for the host.
#include <cstdint>
#include <vector>

#include "global_memory_indexing.h"
#include "kernel_models.h"

namespace labbook::warp {

namespace {

namespace k = labbook::kernels;

// Arrays of a launch, far apart and aligned, as cudaMalloc gives them (256-byte aligned).
constexpr std::uint64_t kA = 1ull << 40, kB = 2ull << 40, kC = 3ull << 40;

/// A 4-byte access per lane: `element(lane)` gives the float index, or -1 when inactive.
template <typename Element>
WarpAccess floats(Operation op, std::uint64_t base, const Element& element) {
  return per_lane(op, Space::Global, 4, [&](int lane) -> long long {
    const long long e = element(lane);
    return e < 0 ? -1 : static_cast<long long>(base) + 4 * e;
  });
}

/// A 1-D launch of these kernels: n elements (per array), `block` threads per block,
/// `per_thread` elements per thread. On the measured GPU the launch's own shape decides.
struct Launch1D {
  long long n;
  unsigned block, offset, unroll;
  std::uint64_t warps;
};

Launch1D launch_1d(const ModelLaunch& l, bool unrolled) {
  Launch1D d{};
  d.offset = static_cast<unsigned>(l.get("offset", 0));
  d.unroll = unrolled ? static_cast<unsigned>(l.get("unroll", 1)) : 1;
  if (l.measured) {
    d.block = l.measured->block[0];
    d.n = static_cast<long long>(l.measured->grid[0]) * d.block * d.unroll;
  } else {
    d.block = static_cast<unsigned>(l.get("block", 512));   // main.cu's default
    d.n = l.get("n");
  }
  const long long per_block = static_cast<long long>(d.block) * d.unroll;
  d.warps = static_cast<std::uint64_t>((d.n + per_block - 1) / per_block) * d.block / kWarpSize;
  return d;
}

/// Linear thread index of lane `lane` of warp `w`.
unsigned thread_of(std::uint64_t w, int lane, unsigned block) {
  const std::uint64_t tid = w * kWarpSize + static_cast<std::uint64_t>(lane);
  return k::thread_index(static_cast<unsigned>(tid / block), block, static_cast<unsigned>(tid % block));
}

ModelledKernel read_segment(const ModelLaunch& launch) {
  const Launch1D l = launch_1d(launch, false);
  return {l.warps, [l](std::uint64_t w, std::vector<WarpAccess>& out) {
            auto read = [&](int lane) -> long long {
              const unsigned kk = k::read_segment_index(thread_of(w, lane, l.block), l.offset);
              return kk < l.n ? static_cast<long long>(kk) : -1LL;
            };
            out.push_back(floats(Operation::Load, kA, read));
            out.push_back(floats(Operation::Load, kB, read));
            out.push_back(floats(Operation::Store, kC, [&](int lane) -> long long {
              return read(lane) >= 0 ? static_cast<long long>(thread_of(w, lane, l.block)) : -1LL;
            }));
          }};
}

ModelledKernel write_segment(const ModelLaunch& launch) {
  const Launch1D l = launch_1d(launch, false);
  return {l.warps, [l](std::uint64_t w, std::vector<WarpAccess>& out) {
            auto active = [&](int lane) { return k::write_segment_index(thread_of(w, lane, l.block), l.offset) < l.n; };
            auto aligned = [&](int lane) -> long long { return active(lane) ? thread_of(w, lane, l.block) : -1; };
            out.push_back(floats(Operation::Load, kA, aligned));
            out.push_back(floats(Operation::Load, kB, aligned));
            out.push_back(floats(Operation::Store, kC, [&](int lane) -> long long {
              return active(lane) ? static_cast<long long>(k::write_segment_index(thread_of(w, lane, l.block), l.offset))
                                  : -1LL;
            }));
          }};
}

/// AoS: x and y of point i are floats 2i and 2i+1, read and written one float at a time
/// (the compiler's code, as the measured 50 % shows). SoA: x[i] and y[i] = floats i and n + i.
ModelledKernel simple_math(const ModelLaunch& launch, bool aos) {
  const Launch1D l = launch_1d(launch, false);
  return {l.warps, [l, aos](std::uint64_t w, std::vector<WarpAccess>& out) {
            auto point = [&](int lane) -> long long {
              const long long i = thread_of(w, lane, l.block);
              return i < l.n ? i : -1;
            };
            auto x = [&](int lane) -> long long { const long long i = point(lane); return i < 0 ? -1 : aos ? 2 * i : i; };
            auto y = [&](int lane) -> long long { const long long i = point(lane); return i < 0 ? -1 : aos ? 2 * i + 1 : l.n + i; };
            out.push_back(floats(Operation::Load, kA, x));
            out.push_back(floats(Operation::Load, kA, y));
            out.push_back(floats(Operation::Store, kC, x));
            out.push_back(floats(Operation::Store, kC, y));
          }};
}

ModelledKernel read_segment_unroll(const ModelLaunch& launch) {
  const Launch1D l = launch_1d(launch, true);
  return {l.warps, [l](std::uint64_t w, std::vector<WarpAccess>& out) {
            auto index = [&](int lane, unsigned u) -> unsigned {
              const std::uint64_t tid = w * kWarpSize + static_cast<std::uint64_t>(lane);
              return k::unrolled_index(static_cast<unsigned>(tid / l.block), l.block,
                                       static_cast<unsigned>(tid % l.block), l.unroll, u);
            };
            for (unsigned u = 0; u < l.unroll; ++u) {
              auto read = [&](int lane) -> long long {
                const unsigned kk = k::read_segment_index(index(lane, u), l.offset);
                return kk < l.n ? static_cast<long long>(kk) : -1LL;
              };
              out.push_back(floats(Operation::Load, kA, read));
              out.push_back(floats(Operation::Load, kB, read));
            }
            for (unsigned u = 0; u < l.unroll; ++u)
              out.push_back(floats(Operation::Store, kC, [&](int lane) -> long long {
                return k::read_segment_index(index(lane, u), l.offset) < l.n ? static_cast<long long>(index(lane, u)) : -1LL;
              }));
          }};
}

/// readPattern(Uncached): the pattern's loads from A, then a coalesced store of C[i].
ModelledKernel read_pattern(const ModelLaunch& launch) {
  const Launch1D l = launch_1d(launch, false);
  const auto pattern = static_cast<unsigned>(launch.get("pattern"));
  return {l.warps, [l, pattern](std::uint64_t w, std::vector<WarpAccess>& out) {
            auto thread = [&](int lane) -> long long {
              const long long i = thread_of(w, lane, l.block);
              return i < l.n ? i : -1;
            };
            out.push_back(floats(Operation::Load, kA, [&](int lane) -> long long {
              const long long i = thread(lane);
              return i < 0 ? -1
                           : static_cast<long long>(k::pattern_load_index(pattern, static_cast<unsigned>(i),
                                                                          static_cast<unsigned>(l.n)));
            }));
            out.push_back(floats(Operation::Store, kC, thread));
          }};
}

/// writePattern: the storing lanes load A[i] coalesced, then store into the warp's window.
/// Every warp of the launch owns a window (main.cu launches whole windows only).
ModelledKernel write_pattern(const ModelLaunch& launch) {
  const Launch1D l = launch_1d(launch, false);
  const auto pattern = static_cast<unsigned>(launch.get("pattern"));
  return {l.warps, [l, pattern](std::uint64_t w, std::vector<WarpAccess>& out) {
            auto target = [&](int lane) -> long long {
              const unsigned kk = k::pattern_store_index(pattern, thread_of(w, lane, l.block));
              return kk == k::kNoStore ? -1 : static_cast<long long>(kk);
            };
            out.push_back(floats(Operation::Load, kA, [&](int lane) -> long long {
              return target(lane) < 0 ? -1 : static_cast<long long>(thread_of(w, lane, l.block));
            }));
            out.push_back(floats(Operation::Store, kC, target));
          }};
}

}  // namespace

void register_global_memory_model(KernelModels& models) {
  models.add("readSegment", read_segment);
  models.add("readSegmentUncached", read_segment);   // same addresses; only the cache path differs
  models.add("writeSegment", write_segment);
  models.add("simpleMathAoS", [](const ModelLaunch& l) { return simple_math(l, true); });
  models.add("simpleMathSoA", [](const ModelLaunch& l) { return simple_math(l, false); });
  models.add("readSegmentUnroll", read_segment_unroll);
  models.add("readPattern", read_pattern);
  models.add("readPatternUncached", read_pattern);   // same addresses through L2 only
  models.add("writePattern", write_pattern);
}

}  // namespace labbook::warp
