// Lab 3 — shared memory: banks, conflicts and broadcasts; a reversal and a tile through
// shared memory.
//
// Reproduces the experiments of 000_e84d1941bb8bbaf9.txt (V-A: strided access, char,
// double, structures, broadcast) and 002_12108229d490a2fe.txt (reverseArray_multiblock vs.
// reverseArray_multiblock_fast) on today's GPU, plus a 32 x 32 tile read by column with and
// without padding. Every experiment is one NVTX range such as "stride/s=2"; every result is
// checked on the host. Runs on its own; labbook only watches it.
//
//   lab3_shared_memory [--blocks B] [--repeat R] [--only TEXT]
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
#include "shared_memory.cuh"

namespace {

using labbook::lab::DeviceBuffer;
using labbook::lab::NvtxRange;
namespace k = labbook::kernels;

struct Options {
  unsigned blocks = 4096;   // blocks of 128 threads for the bank experiments
  int repeat = 3;           // timed launches after the first (checked) one
  std::string only;         // run only experiments whose range path contains this
};

Options parse_options(int argc, char** argv) {
  Options o;
  labbook::lab::Arguments args(argc, argv, "lab3_shared_memory", "[--blocks B] [--repeat R] [--only TEXT]");
  while (args.next()) {
    if (args.flag() == "--blocks") o.blocks = args.number<unsigned>(1, 1u << 20);
    else if (args.flag() == "--repeat") o.repeat = args.number<int>(0, 1000);
    else if (args.flag() == "--only") o.only = args.value();
    else args.fail("unknown argument '" + args.flag() + "'");
  }
  return o;
}

class Lab {
 public:
  explicit Lab(const Options& o) : opt_(o), log_(o.only, 1 + o.repeat) {}

  // 000, V-A: 4-byte words, thread tid reads word s * tid.
  void strides() {
    const unsigned threads = opt_.blocks * k::kSharedThreads;
    DeviceBuffer<float> out(threads);
    for (unsigned s = 1; s <= 33; ++s)
      run("stride/s=" + std::to_string(s), out, [&] {
        k::sharedStride<<<opt_.blocks, k::kSharedThreads, s * k::kSharedThreads * sizeof(float)>>>(out.get(), s);
      }, [&](unsigned i) { return k::shared_value(k::strided_element(i % k::kSharedThreads, s)); });
  }

  // 000: char shared[tid] and shared[4 * tid]; double; the three structures; a broadcast.
  void element_types() {
    const unsigned threads = opt_.blocks * k::kSharedThreads;
    DeviceBuffer<unsigned char> bytes(threads);
    for (unsigned s : {1u, 4u})
      run("char/stride=" + std::to_string(s), bytes, [&] {
        k::sharedChar<<<opt_.blocks, k::kSharedThreads, s * k::kSharedThreads>>>(bytes.get(), s);
      }, [&](unsigned i) { return static_cast<unsigned char>(k::strided_element(i % k::kSharedThreads, s) * 7u); });
    DeviceBuffer<double> doubles(threads);
    run("double", doubles, [&] { k::sharedDouble<<<opt_.blocks, k::kSharedThreads>>>(doubles.get()); },
        [&](unsigned i) { return static_cast<double>(k::shared_value(i % k::kSharedThreads)); });
    DeviceBuffer<float> out(threads);
    run("struct/xyz", out, [&] { k::sharedStruct<k::FloatXYZ, k::make_xyz><<<opt_.blocks, k::kSharedThreads>>>(out.get()); },
        [&](unsigned i) { const auto v = k::make_xyz(i % k::kSharedThreads); return v.x + v.y + v.z; });
    run("struct/xy", out, [&] { k::sharedStruct<k::FloatXY, k::make_xy><<<opt_.blocks, k::kSharedThreads>>>(out.get()); },
        [&](unsigned i) { const auto v = k::make_xy(i % k::kSharedThreads); return v.x + v.y; });
    run("struct/fc", out, [&] { k::sharedStruct<k::FloatChar, k::make_fc><<<opt_.blocks, k::kSharedThreads>>>(out.get()); },
        [&](unsigned i) { const auto v = k::make_fc(i % k::kSharedThreads); return v.f + static_cast<float>(v.c); });
    run("broadcast", out, [&] { k::sharedBroadcast<<<opt_.blocks, k::kSharedThreads>>>(out.get()); },
        [&](unsigned) { return k::shared_value(0); });
  }

  // 002: reverseArray_multiblock and _fast, 256 threads per block, at the published 256K
  // ints (1 MiB, inside L2) and at 64M ints (256 MiB, five times this GPU's L2).
  void reversals(unsigned n) {
    constexpr unsigned kBlock = 256;
    DeviceBuffer<int> in(n), out(n);
    std::vector<int> host(n);
    labbook::lab::RandomFloats rng(n);
    for (auto& v : host) v = static_cast<int>(rng.next() * 1e9f);
    in.upload(host);
    const unsigned grid = n / kBlock;
    const std::string size = "/n=" + std::to_string(n);
    auto expected = [&](unsigned i) { return host[n - 1 - i]; };
    run("reverse/simple" + size, out, [&] { k::reverseArrayBlock<<<grid, kBlock>>>(in.get(), out.get()); }, expected);
    run("reverse/fast" + size, out, [&] {
      k::reverseArrayBlockShared<<<grid, kBlock, kBlock * sizeof(int)>>>(in.get(), out.get());
    }, expected);
  }

  // A 32 x 32 tile written by rows and read by columns, unpadded and padded to 33.
  void tiles(unsigned n) {
    DeviceBuffer<float> in(static_cast<std::size_t>(n) * n), out(static_cast<std::size_t>(n) * n);
    std::vector<float> host(static_cast<std::size_t>(n) * n);
    labbook::lab::RandomFloats(7).fill(host);
    in.upload(host);
    const dim3 grid(n / k::kTile, n / k::kTile), block(k::kTile, k::kTileRows);
    // Within each tile, element (r, c) receives (c, r).
    auto expected = [&](std::size_t i) {
      const std::size_t row = i / n, col = i % n;
      const std::size_t r0 = row / k::kTile * k::kTile, c0 = col / k::kTile * k::kTile;
      return host[(r0 + (col - c0)) * n + c0 + (row - r0)];
    };
    run("tile/unpadded", out, [&] { k::tileColumnRead<32><<<grid, block>>>(in.get(), out.get(), n); }, expected);
    run("tile/padded", out, [&] { k::tileColumnRead<33><<<grid, block>>>(in.get(), out.get(), n); }, expected);
  }

  int report() const { return log_.report(); }

 private:
  // Poisoned output, one checked launch plus `repeat` timed ones inside the experiment's
  // NVTX ranges, then every element compared with expected(i), bit for bit.
  template <typename T, typename Launch, typename Expected>
  void run(const std::string& path, DeviceBuffer<T>& out, Launch&& launch, const Expected& expected) {
    if (!log_.selected(path)) return;
    out.poison();
    float ms = 0;
    {
      labbook::lab::NvtxPath range(path);
      ms = labbook::lab::median_kernel_ms(1 + opt_.repeat, launch);
    }
    std::vector<T> got;
    out.download(got);
    const std::size_t wrong = labbook::lab::first_wrong(got.size(), [&](std::size_t i) {
      const T want = static_cast<T>(expected(static_cast<unsigned>(i)));
      return std::memcmp(&got[i], &want, sizeof(T)) == 0;
    });
    const bool correct = wrong == got.size();
    if (!correct)
      std::fprintf(stderr, "%s: element %zu is %g, expected %g\n", path.c_str(), wrong, static_cast<double>(got[wrong]),
                   static_cast<double>(expected(static_cast<unsigned>(wrong))));
    log_.record(path, ms, correct);
  }

  Options opt_;
  labbook::lab::ExperimentLog log_;
};

}  // namespace

int main(int argc, char** argv) {
  const Options opt = parse_options(argc, argv);
  const cudaDeviceProp prop = labbook::lab::require_gpu();
  std::printf("lab 3 on %s (CC %d.%d), %d banks of 4 bytes, %zu bytes of shared memory per block, %d launches per experiment\n",
              prop.name, prop.major, prop.minor, 32, prop.sharedMemPerBlock, 1 + opt.repeat);
  Lab lab(opt);
  lab.strides();
  lab.element_types();
  lab.reversals(256 * 1024);
  lab.reversals(64u << 20);
  lab.tiles(4096);
  return lab.report();
}
