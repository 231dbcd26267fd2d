// Lab 3 — shared memory: banks, conflicts and broadcasts; a reversal and a tile through
// shared memory.
//
// Reproduces the experiments of 000_e84d1941bb8bbaf9.txt (V-A: strided access, char,
// double, a double split into two int arrays, structures, broadcast, each bank's bandwidth)
// and 002_12108229d490a2fe.txt (two dynamic arrays carved from one buffer,
// reverseArray_multiblock vs. reverseArray_multiblock_fast) on today's GPU, plus a 32 x 32
// tile read by column with and without padding. Every experiment is one NVTX range such as
// "stride/s=2"; a number the program finds from the launches (a byte offset, bytes per bank
// per clock) is the payload of a range inside it; every result is checked on the host. Runs
// on its own; labbook only watches it.
//
//   lab3_shared_memory [--blocks B] [--repeat R] [--only TEXT]
//
// Exit codes: 0 all results correct, 1 a wrong result or CUDA error, 2 bad arguments,
// 77 no GPU.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
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
  int repeat = 4;           // timed launches after the first (checked) one
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

/// The bit pattern of a double, as the kernels' __double_as_longlong gives it.
unsigned long long bits_of(double v) {
  unsigned long long bits = 0;
  std::memcpy(&bits, &v, sizeof bits);
  return bits;
}

/// The throughput kernel's bytes per bank per SM clock: on each SM, the bytes its blocks
/// loaded over the clocks from the first block's start to the last block's end, divided by
/// the banks; the median over the SMs. 0 when a block left no record.
double bytes_per_bank_per_clock(const std::vector<k::BlockClock>& clocks, double bytes_per_block) {
  struct Span {
    long long first = 0, last = 0;
    unsigned blocks = 0;
  };
  std::map<unsigned, Span> per_sm;
  for (const auto& c : clocks) {
    if (c.end <= c.start) return 0;
    Span& s = per_sm[c.sm];
    s.first = s.blocks ? std::min(s.first, c.start) : c.start;
    s.last = s.blocks ? std::max(s.last, c.end) : c.end;
    ++s.blocks;
  }
  std::vector<double> rates;
  for (const auto& [sm, s] : per_sm)
    rates.push_back(s.blocks * bytes_per_block / static_cast<double>(s.last - s.first) / k::kBanks);
  if (rates.empty()) return 0;
  return labbook::lab::median(rates);
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

  // 000, V-A: a double per thread, read kSplitReads times as one 8-byte load, or split as
  // 000 splits it into two int arrays and read as two 4-byte loads put back together.
  void double_split() {
    const unsigned threads = opt_.blocks * k::kSharedThreads;
    DeviceBuffer<unsigned long long> out(threads);
    // kSplitReads times the double's bits, wrapping like the kernels' 64-bit sum.
    auto expected = [](unsigned i) { return bits_of(k::split_value(i % k::kSharedThreads)) * k::kSplitReads; };
    run("double_split/double", out, [&] { k::sharedDoubleReads<<<opt_.blocks, k::kSharedThreads>>>(out.get()); }, expected);
    run("double_split/hi_lo", out, [&] { k::sharedDoubleHiLo<<<opt_.blocks, k::kSharedThreads>>>(out.get()); }, expected);
  }

  // 000, V-A: each bank's bandwidth. Every SM holds as many blocks of the throughput kernel
  // as fit; stride 1 keeps each warp's loads on 32 banks, stride 32 puts them all in one.
  // Inside each range, the range "bytes_per_bank_per_clock" carries what the kernel's own
  // SM clock readings give.
  void bank_bandwidth(const cudaDeviceProp& prop) {
    int per_sm = 0;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k::sharedBandwidth, k::kBandwidthThreads, 0));
    const unsigned blocks = static_cast<unsigned>(prop.multiProcessorCount * std::max(per_sm, 1));
    DeviceBuffer<unsigned> out(static_cast<std::size_t>(blocks) * k::kBandwidthThreads);
    DeviceBuffer<k::BlockClock> clocks(blocks);
    const double bytes_per_block =
        static_cast<double>(k::kBandwidthThreads) * k::kBandwidthRounds * k::kBandwidthLoadsPerRound * sizeof(unsigned);
    for (unsigned s : {1u, 32u}) {
      const std::string path = "bank_bandwidth/s=" + std::to_string(s);
      // Thread t's sum: every round adds the same kBandwidthLoadsPerRound words.
      std::vector<unsigned> sums(k::kBandwidthThreads, 0);
      for (unsigned t = 0; t < k::kBandwidthThreads; ++t) {
        unsigned round = 0;
        for (unsigned j = 0; j < k::kBandwidthLoadsPerRound; ++j) round += k::bandwidth_value(k::bandwidth_word(t, j, s));
        sums[t] = round * k::kBandwidthRounds;
      }
      clocks.poison();
      run(path, out, [&] { k::sharedBandwidth<<<blocks, k::kBandwidthThreads>>>(out.get(), clocks.get(), s); },
          [&](unsigned i) { return sums[i % k::kBandwidthThreads]; },
          [&] {
            std::vector<k::BlockClock> got;
            clocks.download(got);
            const double rate = bytes_per_bank_per_clock(got, bytes_per_block);
            { NvtxRange reported("bytes_per_bank_per_clock", rate); }
            std::printf("%-32s = %.3f bytes per bank per SM clock (%u blocks on %d SMs)\n",
                        (path + "/bytes_per_bank_per_clock").c_str(), rate, blocks, prop.multiProcessorCount);
            if (rate <= 0) std::fprintf(stderr, "%s: a block recorded no clocks\n", path.c_str());
            return rate > 0;
          });
    }
  }

  // 002: dynamic shared arrays. Two `extern __shared__` declarations start at one address;
  // two arrays carved from one buffer, of one type (002's b = &a[aSize]) and of two types (b
  // rounded up to its alignment). Each kernel writes the byte distance it sees; inside each
  // range, the range "offset" carries it.
  void dynamic_arrays() {
    const unsigned threads = opt_.blocks * k::kSharedThreads;
    const unsigned a_size = k::kFirstElements;
    DeviceBuffer<unsigned> offset(1);
    {
      DeviceBuffer<unsigned> out(threads);
      run_with_offset("dynamic/same_start", out, offset, 0u, [&] {
        k::twoExternDeclarations<<<opt_.blocks, k::kSharedThreads, k::kSharedThreads * sizeof(float)>>>(out.get(), offset.get());
      }, [](unsigned i) {
        const float v = k::shared_value(i % k::kSharedThreads);
        unsigned bits = 0;
        std::memcpy(&bits, &v, sizeof bits);
        return bits;
      });
    }
    {
      DeviceBuffer<float> out(threads);
      const unsigned b_offset = k::second_array_offset(a_size * sizeof(float), alignof(float));
      run_with_offset("dynamic/one_type", out, offset, b_offset, [&] {
        k::twoArraysOneType<<<opt_.blocks, k::kSharedThreads, b_offset + k::kSharedThreads * sizeof(float)>>>(
            out.get(), offset.get(), a_size);
      }, [&](unsigned i) {
        const unsigned t = i % k::kSharedThreads;
        return k::first_array_value(k::mirrored_element(t, a_size)) + k::second_array_value(t);
      });
    }
    {
      DeviceBuffer<double> out(threads);
      const unsigned b_offset = k::second_array_offset(a_size * sizeof(short), alignof(double));
      run_with_offset("dynamic/two_types", out, offset, b_offset, [&] {
        k::twoArraysTwoTypes<<<opt_.blocks, k::kSharedThreads, b_offset + k::kSharedThreads * sizeof(double)>>>(
            out.get(), offset.get(), a_size);
      }, [&](unsigned i) {
        const unsigned t = i % k::kSharedThreads;
        return static_cast<double>(static_cast<short>(k::mirrored_element(t, a_size))) +
               static_cast<double>(k::second_array_value(t));
      });
    }
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
    run(path, out, launch, expected, [] { return true; });
  }

  // The same, with `inside()` called in the experiment's range after the launches (to read
  // back and report what the kernel found, in a range of its own); false from it is a wrong
  // result.
  template <typename T, typename Launch, typename Expected, typename Inside>
  void run(const std::string& path, DeviceBuffer<T>& out, Launch&& launch, const Expected& expected, Inside&& inside) {
    if (!log_.selected(path)) return;
    out.poison();
    float ms = 0;
    bool inside_ok = true;
    {
      labbook::lab::NvtxPath range(path);
      ms = labbook::lab::median_kernel_ms(1 + opt_.repeat, launch);
      inside_ok = inside();
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
    log_.record(path, ms, correct && inside_ok);
  }

  // run() for a kernel that also writes a byte distance to `offset`: read back inside the
  // experiment's range and carried by the range "offset" within it (payload_bytes); it must
  // be `want`.
  template <typename T, typename Launch, typename Expected>
  void run_with_offset(const std::string& path, DeviceBuffer<T>& out, DeviceBuffer<unsigned>& offset, unsigned want,
                       Launch&& launch, const Expected& expected) {
    offset.poison();
    run(path, out, launch, expected, [&] {
      std::vector<unsigned> got;
      offset.download(got);
      { NvtxRange reported("offset", got[0]); }
      std::printf("%-32s = %u bytes\n", (path + "/offset").c_str(), got[0]);
      if (got[0] != want) std::fprintf(stderr, "%s: offset %u bytes, expected %u\n", path.c_str(), got[0], want);
      return got[0] == want;
    });
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
  lab.double_split();
  lab.bank_bandwidth(prop);
  lab.dynamic_arrays();
  lab.reversals(256 * 1024);
  lab.reversals(64u << 20);
  lab.tiles(4096);
  return lab.report();
}
