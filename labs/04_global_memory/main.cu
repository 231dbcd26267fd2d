// Lab 4 — global memory: alignment, coalescing, caching, data layout and unrolling.
//
// Reproduces the experiments of 003_c67e0f909fb510d6.txt (chapter 4, from "Accès aligné
// et coalescé" to "Exposer plus de parallélisme") on today's GPU. Every experiment is one
// NVTX range such as "readSegment/offset=11"; each kernel is checked against a host
// reference on random data. Runs on its own; labbook only watches it.
//
//   lab4_global_memory [--elements N] [--repeat R] [--only TEXT] [--seed S]
//
// Exit codes: 0 all results correct, 1 a wrong result or CUDA error, 2 bad arguments,
// 77 no GPU.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "arguments.h"
#include "cuda_check.h"
#include "device_buffer.h"
#include "global_memory.cuh"
#include "host_memory.h"
#include "kernel_timer.h"
#include "experiment_log.h"
#include "nvtx_range.h"
#include "parallel_check.h"
#include "random_data.h"

namespace {

using labbook::lab::DeviceBuffer;
using labbook::lab::HostKind;
using labbook::lab::HostMemory;
using labbook::lab::NvtxRange;
namespace k = labbook::kernels;

struct Options {
  unsigned elements = 1u << 24;  // 64 MiB per array: three arrays are ~4x the H100's L2
  int repeat = 4;                // timed launches after the first (checked) one
  std::string only;              // run only experiments whose range path contains this
  std::uint64_t seed = 4536;
};

Options parse_options(int argc, char** argv) {
  Options o;
  labbook::lab::Arguments args(argc, argv, "lab4_global_memory", "[--elements N] [--repeat R] [--only TEXT] [--seed S]");
  while (args.next()) {
    if (args.flag() == "--elements") o.elements = args.number<unsigned>(1024, 1u << 28);
    else if (args.flag() == "--repeat") o.repeat = args.number<int>(0, 1000);
    else if (args.flag() == "--only") o.only = args.value();
    else if (args.flag() == "--seed") o.seed = args.number<std::uint64_t>(0, ~0ull);
    else args.fail("unknown argument '" + args.flag() + "'");
  }
  return o;
}

class Lab {
 public:
  // Random inputs, made and uploaded once: no kernel writes them, and every experiment
  // poisons its output first, so a stale result cannot pass a check. Results come back into
  // pinned memory: 80 downloads of 64 MiB were most of the lab's time outside its kernels,
  // which every run of a profiler pays again.
  explicit Lab(const Options& o)
      : opt_(o), a_(o.elements), b_(o.elements), c_(o.elements), host_a_(o.elements), host_b_(o.elements),
        result_(HostKind::Pinned, o.elements), log_(o.only, 1 + o.repeat) {
    labbook::lab::RandomFloats rng(o.seed);
    rng.fill(host_a_);
    rng.fill(host_b_);
    a_.upload(host_a_);
    b_.upload(host_b_);
  }

  // Misaligned reads, L1 cached (sm_90's default for global loads) and uncached.
  void read_segment(const char* group, bool uncached, const std::vector<unsigned>& offsets,
                    unsigned block = 512) {
    const unsigned n = opt_.elements;
    for (unsigned offset : offsets) {
      const std::string path = std::string(group) + "/offset=" + std::to_string(offset);
      const unsigned grid = (n + block - 1) / block;
      run_vector_experiment(path, 12.0 * (n - offset), [&] {
        if (uncached) k::readSegmentUncached<<<grid, block>>>(a_.get(), b_.get(), c_.get(), n, offset);
        else k::readSegment<<<grid, block>>>(a_.get(), b_.get(), c_.get(), n, offset);
      }, [&](unsigned i) -> std::optional<float> {
        const unsigned kk = k::read_segment_index(i, offset);
        if (kk >= n) return std::nullopt;
        return host_a_[kk] + host_b_[kk];
      });
    }
  }

  void write_segment(const std::vector<unsigned>& offsets, unsigned block = 512) {
    const unsigned n = opt_.elements;
    for (unsigned offset : offsets) {
      const std::string path = "writeSegment/offset=" + std::to_string(offset);
      const unsigned grid = (n + block - 1) / block;
      run_vector_experiment(path, 12.0 * (n - offset), [&] {
        k::writeSegment<<<grid, block>>>(a_.get(), b_.get(), c_.get(), n, offset);
      }, [&](unsigned kk) -> std::optional<float> {
        if (kk < offset) return std::nullopt;
        const unsigned i = kk - offset;   // inverse of write_segment_index
        return host_a_[i] + host_b_[i];
      });
    }
  }

  // readSegmentUnroll<U> at one offset, for several U and block sizes.
  void unrolled(const std::string& path, unsigned unroll, unsigned block, unsigned offset) {
    const unsigned n = opt_.elements;
    const unsigned grid = (n + block * unroll - 1) / (block * unroll);
    run_vector_experiment(path, 12.0 * (n - offset), [&] {
      switch (unroll) {
        case 1: k::readSegmentUnroll<1><<<grid, block>>>(a_.get(), b_.get(), c_.get(), n, offset); break;
        case 2: k::readSegmentUnroll<2><<<grid, block>>>(a_.get(), b_.get(), c_.get(), n, offset); break;
        default: k::readSegmentUnroll<4><<<grid, block>>>(a_.get(), b_.get(), c_.get(), n, offset); break;
      }
    }, [&](unsigned i) -> std::optional<float> {
      const unsigned kk = k::read_segment_index(i, offset);
      if (kk >= n) return std::nullopt;
      return host_a_[kk] + host_b_[kk];
    });
  }

  // x += 10, y += 20 over n points, as an array of structures and as a structure of arrays.
  // The AoS buffer interleaves x and y in A (first half) and B (second half) sized arrays.
  void layouts(unsigned block = 128) {
    const unsigned n = opt_.elements / 2;   // n points = n x and n y floats = one array of floats
    const unsigned grid = (n + block - 1) / block;
    const double bytes = 2.0 * 8.0 * n;     // read and write 8 bytes per point
    // AoS: a_ holds {x0, y0, x1, y1, ...}; the result goes to c_ in the same layout.
    run_vector_experiment("simpleMathAoS", bytes, [&] {
      k::simpleMathAoS<<<grid, block>>>(reinterpret_cast<const k::innerStruct*>(a_.get()),
                                        reinterpret_cast<k::innerStruct*>(c_.get()), n);
    }, [&](unsigned i) -> std::optional<float> {
      if (i >= 2 * n) return std::nullopt;
      return host_a_[i] + (i % 2 == 0 ? 10.f : 20.f);
    });
    // SoA: x in the first half of a_, y in its second half; results likewise in c_.
    run_vector_experiment("simpleMathSoA", bytes, [&] {
      k::simpleMathSoA<<<grid, block>>>(k::innerArray{a_.get(), a_.get() + n},
                                        k::innerArray{c_.get(), c_.get() + n}, n);
    }, [&](unsigned i) -> std::optional<float> {
      if (i >= 2 * n) return std::nullopt;
      return host_a_[i] + (i < n ? 10.f : 20.f);
    });
  }

  // 003's figures of loads (4-10/4-15 permuted in a line, 4-12 one address, 4-13/4-18
  // scattered), L1 cached or not; the stores stay coalesced. Whole blocks only, so that the
  // model's array (the launch's threads) is the kernel's.
  void load_patterns(const char* group, bool uncached, unsigned block = 512) {
    const unsigned n = opt_.elements / block * block;
    const unsigned grid = n / block;
    const std::pair<const char*, unsigned> patterns[] = {
        {"permuted", k::kPermutedInLine}, {"same_address", k::kSameAddress}, {"scattered", k::kScattered}};
    for (const auto& named : patterns) {
      const unsigned pattern = named.second;
      run_vector_experiment(std::string(group) + "/" + named.first, 8.0 * n, [&] {
        if (uncached) k::readPatternUncached<<<grid, block>>>(a_.get(), c_.get(), n, pattern);
        else k::readPattern<<<grid, block>>>(a_.get(), c_.get(), n, pattern);
      }, [&](unsigned i) -> std::optional<float> {
        if (i >= n) return std::nullopt;
        return host_a_[k::pattern_load_index(pattern, i, n)];
      });
    }
  }

  // 003's figures 4-20 (24 lanes on three separate segments of 192 bytes) and 4-21 (16
  // lanes on 64 aligned bytes): one 48-float window per warp, whole blocks of windows.
  void store_patterns(unsigned block = 512) {
    const unsigned warps_per_block = block / 32;
    const unsigned warps = opt_.elements / k::kStoreWindow / warps_per_block * warps_per_block;
    const unsigned grid = warps / warps_per_block;
    const std::pair<const char*, unsigned> patterns[] = {{"three_segments", k::kThreeSegments},
                                                         {"two_segments", k::kTwoSegments}};
    for (const auto& named : patterns) {
      const unsigned pattern = named.second;
      const unsigned lanes = pattern == k::kThreeSegments ? 24 : 16;
      run_vector_experiment(std::string("storePattern/") + named.first, 8.0 * lanes * warps, [&] {
        k::writePattern<<<grid, block>>>(a_.get(), c_.get(), warps, pattern);
      }, [&](unsigned e) -> std::optional<float> {
        if (e >= warps * k::kStoreWindow) return std::nullopt;
        // The lane of e's window that stores e, if any: try the window's 32 lanes.
        const unsigned window = e / k::kStoreWindow;
        for (unsigned lane = 0; lane < 32; ++lane)
          if (k::pattern_store_index(pattern, window * 32 + lane) == e) return host_a_[window * 32 + lane];
        return std::nullopt;
      });
    }
  }

  int report() const { return log_.report(); }

 private:
  // Poisoned output, one checked launch plus `repeat` timed ones inside the experiment's
  // NVTX range(s), then an exact comparison with the host reference: float addition is
  // correctly rounded on both sides. `expected(i)` is output element i's value, or nullopt
  // where the kernel must not write.
  template <typename Launch, typename Reference>
  void run_vector_experiment(const std::string& path, double bytes, Launch&& launch,
                             const Reference& expected) {
    if (!log_.selected(path)) return;
    c_.poison();
    float ms = 0;
    {
      const auto slash = path.find('/');
      std::optional<NvtxRange> group;
      if (slash != std::string::npos) group.emplace(path.substr(0, slash));
      NvtxRange experiment(slash == std::string::npos ? path : path.substr(slash + 1));
      ms = labbook::lab::median_kernel_ms(1 + opt_.repeat, launch);
    }
    c_.download(result_.get());
    const float* c = result_.get();
    const std::size_t wrong = labbook::lab::first_wrong(result_.size(), [&](std::size_t i) {
      const std::optional<float> want = expected(static_cast<unsigned>(i));
      std::uint32_t bits;
      std::memcpy(&bits, &c[i], sizeof bits);
      return want ? c[i] == *want : bits == 0xFFFFFFFFu;
    });
    const bool correct = wrong == result_.size();
    if (!correct) {
      const std::optional<float> want = expected(static_cast<unsigned>(wrong));
      std::fprintf(stderr, "%s: element %zu is %g, expected %s\n", path.c_str(), wrong, c[wrong],
                   want ? std::to_string(*want).c_str() : "untouched");
    }
    log_.record(path, ms, correct, bytes);
  }

  Options opt_;
  DeviceBuffer<float> a_, b_, c_;
  std::vector<float> host_a_, host_b_;
  HostMemory<float> result_;
  labbook::lab::ExperimentLog log_;
};

std::vector<unsigned> sweep_offsets() {
  std::vector<unsigned> offsets;
  for (unsigned o = 0; o <= 32; ++o) offsets.push_back(o);
  offsets.push_back(128);
  return offsets;
}

}  // namespace

int main(int argc, char** argv) {
  const Options opt = parse_options(argc, argv);
  const cudaDeviceProp prop = labbook::lab::require_gpu();
  std::printf("lab 4 on %s (CC %d.%d), %u floats per array, %d launches per experiment\n",
              prop.name, prop.major, prop.minor, opt.elements, 1 + opt.repeat);

  Lab lab(opt);
  lab.read_segment("readSegment", /*uncached=*/false, sweep_offsets());
  lab.read_segment("readSegmentUncached", /*uncached=*/true, sweep_offsets());
  lab.write_segment({0, 11, 128});
  lab.load_patterns("loadPattern", /*uncached=*/false);
  lab.load_patterns("loadPatternUncached", /*uncached=*/true);
  lab.store_patterns();
  lab.layouts();
  for (unsigned unroll : {1u, 2u, 4u})
    lab.unrolled("readSegmentUnroll/unroll=" + std::to_string(unroll), unroll, 512, 11);
  for (unsigned block : {128u, 256u, 512u, 1024u})
    lab.unrolled("readSegmentUnroll4/block=" + std::to_string(block), 4, block, 11);
  return lab.report();
}
