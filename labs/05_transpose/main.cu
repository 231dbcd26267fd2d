// Lab 5 — matrix transpose: effective bandwidth, L1 caching, block shape, diagonal order.
//
// Reproduces the transpose experiments of 003_c67e0f909fb510d6.txt (« Variantes du noyau pour
// l'opération de transposition » to Table 4-13) on today's GPU: copies by rows and columns as
// bounds, naive, unrolled and diagonal transposes at 16 x 16 with L1 caching on and off, the
// NaiveCol block-size sweep, every kernel at the source's best thin block (8 x 32), all at
// 2048^2 (L2-resident on an H100); then a size that does not fit in L2 (16384^2, 1 GiB per
// matrix, DRAM-bound like the source's 2048^2 on Fermi) at the source's two block shapes:
// 16 x 16 ("large/", Tables 4-4 to 4-10) and 8 x 32 ("large_thin/", Table 4-13). Plus a tiled
// transpose through padded shared memory and a device-to-device cudaMemcpy of each size as
// the practical peak for that size. Every experiment is one NVTX range such as
// "l1/NaiveCol"; every result is checked on the host. Runs on its own.
//
//   lab5_transpose [--n N] [--large N] [--repeat R] [--only TEXT] [--seed S]
//
// Exit codes: 0 all results correct, 1 a wrong result or CUDA error, 2 bad arguments,
// 77 no GPU.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "arguments.h"
#include "cuda_check.h"
#include "device_buffer.h"
#include "kernel_timer.h"
#include "experiment_log.h"
#include "nvtx_range.h"
#include "parallel_check.h"
#include "random_data.h"
#include "transpose.cuh"

namespace {

using labbook::lab::DeviceBuffer;
using labbook::lab::NvtxRange;
namespace k = labbook::kernels;

struct Options {
  unsigned n = 2048;        // the source's matrix
  unsigned large = 16384;   // 1 GiB per matrix: far beyond the H100's 50 MB L2 (0: skip)
  // Timed launches after the first (checked) one. A 2048² kernel takes about 10 µs, where one
  // slow launch of five spans a claim's whole interval; of nine, the median's 95 % interval
  // leaves the fastest and the slowest out.
  int repeat = 8;
  std::string only;         // run only experiments whose range path contains this
  std::uint64_t seed = 4536;
};

Options parse_options(int argc, char** argv) {
  Options o;
  labbook::lab::Arguments args(argc, argv, "lab5_transpose", "[--n N] [--large N] [--repeat R] [--only TEXT] [--seed S]");
  while (args.next()) {
    if (args.flag() == "--n") o.n = args.number<unsigned>(128, 32768);
    else if (args.flag() == "--large") o.large = args.number<unsigned>(0, 32768);
    else if (args.flag() == "--repeat") o.repeat = args.number<int>(0, 1000);
    else if (args.flag() == "--only") o.only = args.value();
    else if (args.flag() == "--seed") o.seed = args.number<std::uint64_t>(0, ~0ull);
    else args.fail("unknown argument '" + args.flag() + "'");
  }
  if (o.n % 128 || o.large % 128) args.fail("--n and --large must be multiples of 128 (4 x 32-wide blocks)");
  return o;
}

/// The kernels, by the names the source gives them.
enum class Kernel { CopyRow, CopyCol, NaiveRow, NaiveCol, Unroll4Row, Unroll4Col, DiagonalRow, DiagonalCol, Tiled };
constexpr Kernel kAllKernels[] = {Kernel::CopyRow,     Kernel::CopyCol,     Kernel::NaiveRow,
                                  Kernel::NaiveCol,    Kernel::Unroll4Row,  Kernel::Unroll4Col,
                                  Kernel::DiagonalRow, Kernel::DiagonalCol, Kernel::Tiled};
const char* name_of(Kernel kernel) {
  static const char* names[] = {"CopyRow", "CopyCol", "NaiveRow", "NaiveCol", "Unroll4Row",
                                "Unroll4Col", "DiagonalRow", "DiagonalCol", "Tiled"};
  return names[static_cast<int>(kernel)];
}
bool is_copy(Kernel kernel) { return kernel == Kernel::CopyRow || kernel == Kernel::CopyCol; }

template <bool kL1>
void launch(Kernel kernel, dim3 block, const float* in, float* out, unsigned n) {
  const dim3 grid((n + block.x - 1) / block.x, (n + block.y - 1) / block.y);
  const dim3 grid4((n + 4 * block.x - 1) / (4 * block.x), grid.y);
  const dim3 tiles(n / k::kTransposeTile, n / k::kTransposeTile), tile_block(k::kTransposeTile, k::kTransposeTileRows);
  switch (kernel) {
    case Kernel::CopyRow: k::copyRow<kL1><<<grid, block>>>(in, out, n, n); break;
    case Kernel::CopyCol: k::copyCol<kL1><<<grid, block>>>(in, out, n, n); break;
    case Kernel::NaiveRow: k::transposeNaiveRow<kL1><<<grid, block>>>(in, out, n, n); break;
    case Kernel::NaiveCol: k::transposeNaiveCol<kL1><<<grid, block>>>(in, out, n, n); break;
    case Kernel::Unroll4Row: k::transposeUnroll4Row<kL1><<<grid4, block>>>(in, out, n, n); break;
    case Kernel::Unroll4Col: k::transposeUnroll4Col<kL1><<<grid4, block>>>(in, out, n, n); break;
    case Kernel::DiagonalRow: k::transposeDiagonalRow<kL1><<<grid, block>>>(in, out, n, n); break;
    case Kernel::DiagonalCol: k::transposeDiagonalCol<kL1><<<grid, block>>>(in, out, n, n); break;
    case Kernel::Tiled: k::transposeTiled<kL1><<<tiles, tile_block>>>(in, out, n, n); break;
  }
}

/// One matrix size: random input, uploaded once, and an output poisoned before each experiment.
class Matrices {
 public:
  Matrices(unsigned n, std::uint64_t seed) : n(n), in(std::size_t(n) * n), out(std::size_t(n) * n), host(std::size_t(n) * n) {
    labbook::lab::RandomFloats(seed).fill(host);
    in.upload(host);
  }
  const unsigned n;
  DeviceBuffer<float> in, out;
  std::vector<float> host, result;
};

class Lab {
 public:
  explicit Lab(const Options& o) : opt_(o), log_(o.only, 1 + o.repeat) {}

  /// Every kernel (and the device-to-device copy) on `m` at `block`, in ranges "group/Kernel".
  template <bool kL1>
  void all_kernels(const std::string& group, Matrices& m, dim3 block, bool with_tiled, bool with_copy) {
    for (Kernel kernel : kAllKernels)
      if (kernel != Kernel::Tiled || with_tiled) run<kL1>(group + "/" + name_of(kernel), m, kernel, block);
    if (with_copy) {
      const std::string path = group + "/DeviceCopy";
      if (!log_.selected(path)) return;
      measure(path, m, true, [&] {
        CUDA_CHECK(cudaMemcpy(m.out.get(), m.in.get(), std::size_t(m.n) * m.n * sizeof(float), cudaMemcpyDeviceToDevice));
      });
    }
  }

  /// The source's NaiveCol sweep over block shapes, x by y.
  void naive_col_sweep(Matrices& m) {
    for (unsigned bx : {32u, 16u, 8u})
      for (unsigned by : {32u, 16u, 8u})
        run<true>("NaiveCol/block=" + std::to_string(bx) + "x" + std::to_string(by), m, Kernel::NaiveCol, dim3(bx, by));
  }

  int report() const { return log_.report(); }

 private:
  template <bool kL1>
  void run(const std::string& path, Matrices& m, Kernel kernel, dim3 block) {
    if (!log_.selected(path)) return;
    measure(path, m, is_copy(kernel), [&] { launch<kL1>(kernel, block, m.in.get(), m.out.get(), m.n); });
  }

  // Poisoned output, one checked launch plus `repeat` timed ones inside the experiment's
  // NVTX ranges, then every element compared with the input, copied or transposed.
  template <typename Launch>
  void measure(const std::string& path, Matrices& m, bool copy, Launch&& launch) {
    m.out.poison();
    float ms = 0;
    {
      labbook::lab::NvtxPath range(path);
      ms = labbook::lab::median_kernel_ms(1 + opt_.repeat, launch);
    }
    m.out.download(m.result);
    const std::size_t n = m.n;
    auto expected = [&](std::size_t i) { return copy ? m.host[i] : m.host[(i % n) * n + i / n]; };
    const std::size_t wrong = labbook::lab::first_wrong(m.result.size(), [&](std::size_t i) {
      const float want = expected(i);
      return std::memcmp(&m.result[i], &want, sizeof want) == 0;
    });
    const bool correct = wrong == m.result.size();
    if (!correct)
      std::fprintf(stderr, "%s: element %zu is %g, expected %g\n", path.c_str(), wrong, m.result[wrong], expected(wrong));
    log_.record(path, ms, correct, 2.0 * n * n * sizeof(float));
  }

  Options opt_;
  labbook::lab::ExperimentLog log_;
};

}  // namespace

int main(int argc, char** argv) {
  const Options opt = parse_options(argc, argv);
  const cudaDeviceProp prop = labbook::lab::require_gpu();
  std::printf("lab 5 on %s (CC %d.%d, %d MB L2), %u x %u floats (and %u x %u), %d launches per experiment\n", prop.name,
              prop.major, prop.minor, prop.l2CacheSize >> 20, opt.n, opt.n, opt.large, opt.large, 1 + opt.repeat);
  Lab lab(opt);
  {
    Matrices m(opt.n, opt.seed);
    lab.all_kernels<true>("l1", m, dim3(16, 16), true, true);
    lab.all_kernels<false>("nol1", m, dim3(16, 16), true, false);
    lab.naive_col_sweep(m);
    lab.all_kernels<true>("thin", m, dim3(8, 32), false, false);   // the source's best (Table 4-11)
  }
  if (opt.large) {
    // DRAM-bound, at the source's block shapes, so that shares of DRAM peak compare with its own.
    Matrices m(opt.large, opt.seed + 1);
    lab.all_kernels<true>("large", m, dim3(16, 16), true, true);         // Tables 4-4 to 4-10
    lab.all_kernels<true>("large_thin", m, dim3(8, 32), false, false);   // Table 4-13
  }
  return lab.report();
}
