// Lab 1 — memory spaces: registers, local, shared, constant and global memory; how far each
// is from the SM in cycles, and what the compiler does with registers and local arrays.
//
// Follows 002_12108229d490a2fe.txt ("CUDA 内存性能", "寄存器/本地内存注意事项"),
// 003_c67e0f909fb510d6.txt (Table 4-2, the static __device__ variable) and
// 004_12112d3317679e06.txt (ptxas -v, registers, local and constant memory). Every
// experiment is one NVTX range such as "latency/ws=16KiB"; every result is checked on the
// host. The latencies themselves are the collector's to measure (kernel cycles / reads):
// this program prints only its own event times. Runs on its own; labbook only watches it.
//
//   lab1_memory_spaces [--steps S] [--max-ws BYTES] [--repeat R] [--only TEXT] [--seed S]
//
// Exit codes: 0 all results correct, 1 a wrong result or CUDA error, 2 bad arguments,
// 77 no GPU.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "arguments.h"
#include "cuda_check.h"
#include "device_buffer.h"
#include "kernel_timer.h"
#include "memory_spaces.cuh"
#include "experiment_log.h"
#include "nvtx_range.h"
#include "parallel_check.h"
#include "register_cap.h"

namespace {

using labbook::lab::DeviceBuffer;
namespace k = labbook::kernels;

struct Options {
  std::uint32_t steps = 1u << 18;      // dependent reads per chase, at least
  std::uint64_t max_ws = 2ull << 30;   // largest working set of the global chase
  int repeat = 4;                      // timed launches after the first (checked) one
  std::string only;                    // run only experiments whose range path contains this
  std::uint64_t seed = 1;
};

Options parse_options(int argc, char** argv) {
  Options o;
  labbook::lab::Arguments args(argc, argv, "lab1_memory_spaces",
                               "[--steps S] [--max-ws BYTES] [--repeat R] [--only TEXT] [--seed S]");
  while (args.next()) {
    if (args.flag() == "--steps") o.steps = args.number<std::uint32_t>(k::kChaseUnroll, 1u << 26);
    else if (args.flag() == "--max-ws") o.max_ws = args.number<std::uint64_t>(4096, 8ull << 30);
    else if (args.flag() == "--repeat") o.repeat = args.number<int>(0, 1000);
    else if (args.flag() == "--only") o.only = args.value();
    else if (args.flag() == "--seed") o.seed = args.number<std::uint64_t>(0, ~0ull);
    else args.fail("unknown argument '" + args.flag() + "'");
  }
  o.steps = (o.steps + k::kChaseUnroll - 1) / k::kChaseUnroll * k::kChaseUnroll;
  return o;
}

/// "16KiB", "4MiB", "2GiB": working sets as the sheet shows them.
std::string size_name(std::uint64_t bytes) {
  if (bytes >= (1ull << 30)) return std::to_string(bytes >> 30) + "GiB";
  if (bytes >= (1ull << 20)) return std::to_string(bytes >> 20) + "MiB";
  return std::to_string(bytes >> 10) + "KiB";
}

class Lab {
 public:
  explicit Lab(const Options& o) : opt_(o), rng_(o.seed), log_(o.only, 1 + o.repeat) {}

  // Global memory: one thread follows a random ring of slots through a working set of `ws`
  // bytes. Slots are 128 bytes apart (one L1 line each) up to 2^20 slots, then further apart,
  // so the largest sets are spread over all their pages. `steps` at least one lap, so each
  // launch touches the whole ring; the trace run's later launches find it where the earlier
  // ones left it (in L1 within a launch, in L2 between launches when it fits).
  void global_chase(std::uint64_t ws) {
    const std::string path = "latency/ws=" + size_name(ws);
    if (!log_.selected(path)) return;
    const std::uint64_t stride = std::max<std::uint64_t>(128, ws >> 20);
    const auto slots = static_cast<std::uint32_t>(ws / stride);
    const auto stride_words = static_cast<std::uint32_t>(stride / 4);
    std::vector<std::uint32_t> order(slots);
    std::iota(order.begin(), order.end(), 0u);
    std::shuffle(order.begin(), order.end(), rng_);
    DeviceBuffer<std::uint32_t> next(ws / 4), device_order(slots), out(1);
    device_order.upload(order);
    {
      // A range of its own, closed once the kernel has run: every kernel runs inside a range
      // (labbook check), and the chase's range must hold only the chase.
      labbook::lab::NvtxPath setup("setup/ring/ws=" + size_name(ws));
      k::buildRing<<<(slots + 255) / 256, 256>>>(next.get(), device_order.get(), slots, stride_words);
      CUDA_CHECK(cudaGetLastError());
      CUDA_CHECK(cudaDeviceSynchronize());
    }
    const std::uint32_t steps = std::max(opt_.steps, (slots + k::kChaseUnroll - 1) / k::kChaseUnroll * k::kChaseUnroll);
    const std::uint32_t start = order[0] * stride_words;
    run(path, out, [&] { k::chaseGlobal<<<1, 1>>>(next.get(), start, steps, out.get()); },
        [&](std::size_t) { return order[steps % slots] * stride_words; });
  }

  void shared_chase() {
    DeviceBuffer<std::uint32_t> out(1);
    const std::uint32_t steps = opt_.steps;
    run("latency/shared", out, [&] { k::chaseShared<<<1, 256>>>(steps, out.get()); },
        [&](std::size_t) { return static_cast<std::uint32_t>(std::uint64_t{steps} * 97 % k::kSharedRing); });
  }

  void constant_chase() {
    // Entry e holds the byte offset of entry (e + 37) mod 256: one lap through all 256.
    std::vector<std::uint32_t> ring(k::kConstantRing);
    for (unsigned e = 0; e < k::kConstantRing; ++e) ring[e] = (e + 37) % k::kConstantRing * 4;
    CUDA_CHECK(cudaMemcpyToSymbol(k::c_ring, ring.data(), ring.size() * sizeof(std::uint32_t)));
    DeviceBuffer<std::uint32_t> out(1);
    const std::uint32_t steps = opt_.steps;
    run("latency/constant", out, [&] { k::chaseConstant<<<1, 1>>>(steps, out.get()); },
        [&](std::size_t) { return static_cast<std::uint32_t>(std::uint64_t{steps} * 37 % k::kConstantRing * 4); });
  }

  void register_chain() {
    DeviceBuffer<std::uint32_t> out(1);
    const std::uint32_t steps = opt_.steps, seed = 12345;
    run("latency/registers", out, [&] { k::chaseRegisters<<<1, 1>>>(seed, steps, out.get()); },
        [&](std::size_t) { return k::registers_chain(seed, steps); });
  }

  // A per-thread array indexed at run time (local memory) or by constants (registers).
  void local_arrays() {
    const unsigned n = 1u << 22, block = 256;
    std::vector<std::uint32_t> in(n), start(n);
    for (auto& v : in) v = static_cast<std::uint32_t>(rng_());
    for (auto& v : start) v = static_cast<std::uint32_t>(rng_() % k::kLocalArray);
    DeviceBuffer<std::uint32_t> d_in(n), d_start(n), out(n);
    d_in.upload(in);
    d_start.upload(start);
    run("local/runtime_index", out,
        [&] { k::localArrayRuntime<<<n / block, block>>>(d_in.get(), d_start.get(), out.get(), n); },
        [&](std::size_t i) { return k::local_array_result(in[i], start[i]); });
    constexpr unsigned kStart = 5;
    run("local/compile_time_index", out,
        [&] { k::localArrayCompileTime<kStart><<<n / block, block>>>(d_in.get(), out.get(), n); },
        [&](std::size_t i) { return k::local_array_result(in[i], kStart); });
  }

  // The same register-hungry kernel built as usual, under -maxrregcount (register_cap.cu) and
  // under __launch_bounds__.
  void register_cap() {
    const unsigned n = 1u << 18, block = 256, rounds = 32;
    std::vector<std::uint32_t> in(n);
    for (auto& v : in) v = static_cast<std::uint32_t>(rng_());
    DeviceBuffer<std::uint32_t> d_in(n), out(n);
    d_in.upload(in);
    std::vector<std::uint32_t> want(n);
    for (unsigned i = 0; i < n; ++i) want[i] = k::mix_result(in[i], rounds);
    run("spill/default", out, [&] { k::registerPressure<<<n / block, block>>>(d_in.get(), out.get(), n, rounds); },
        [&](std::size_t i) { return want[i]; });
    run("spill/maxrregcount=" + std::to_string(kRegisterCap), out,
        [&] { launch_register_pressure_capped(n / block, block, d_in.get(), out.get(), n, rounds); },
        [&](std::size_t i) { return want[i]; });
    run("spill/launch_bounds=" + std::to_string(k::kBoundedThreads) + "x" + std::to_string(k::kBoundedBlocks), out,
        [&] { k::registerPressureBounded<<<n / block, block>>>(d_in.get(), out.get(), n, rounds); },
        [&](std::size_t i) { return want[i]; });
  }

  // Every lane reads one table entry per round: the same for the whole warp, or one per lane,
  // from constant memory and from global memory. The main rows read a 1 KiB table, inside the
  // constant cache's working set; the sweep broadcast/*/table=SIZE repeats the broadcast over
  // tables of 1 to 16 KiB, to show what a table beyond that working set costs.
  void tables() {
    std::vector<std::uint32_t> table(k::kTableEntries);
    for (unsigned e = 0; e < k::kTableEntries; ++e) table[e] = k::table_value(e);
    CUDA_CHECK(cudaMemcpyToSymbol(k::c_table, table.data(), table.size() * sizeof(std::uint32_t)));
    DeviceBuffer<std::uint32_t> d_table(k::kTableEntries);
    d_table.upload(table);
    for (bool divergent : {false, true}) {
      const std::string how = divergent ? "divergent" : "same";
      table_pair("constant/" + how, "global/" + how, d_table.get(), k::kFittingTableEntries, divergent);
    }
    for (unsigned entries = k::kFittingTableEntries; entries <= k::kTableEntries; entries *= 2) {
      const std::string size = "table=" + size_name(std::uint64_t{entries} * sizeof(std::uint32_t));
      table_pair("broadcast/constant/" + size, "broadcast/global/" + size, d_table.get(), entries, false);
    }
  }

  // 003: the host writes a __device__ variable with cudaMemcpyToSymbol, a kernel adds 2,
  // the host reads it back.
  void device_symbol() {
    const std::string path = "symbol/devData";
    if (!log_.selected(path)) return;
    const float before = 3.14f;
    float after = 0;
    {
      labbook::lab::NvtxPath range(path);
      CUDA_CHECK(cudaMemcpyToSymbol(k::devData, &before, sizeof before));
      k::checkGlobalVariable<<<1, 1>>>();
      CUDA_CHECK(cudaGetLastError());
      CUDA_CHECK(cudaMemcpyFromSymbol(&after, k::devData, sizeof after));
    }
    const bool correct = after == before + 2.0f;
    std::printf("devData %.2f -> %.2f\n", before, after);
    log_.record(path, 0.f, correct);
  }

  int report() const { return log_.report(); }

 private:
  // Poisoned output, one checked launch plus `repeat` timed ones inside the experiment's
  // NVTX path, then an exact comparison with `expected(i)` for every element.
  template <typename Launch>
  void run(const std::string& path, DeviceBuffer<std::uint32_t>& out, Launch&& launch,
           const std::function<std::uint32_t(std::size_t)>& expected) {
    if (!log_.selected(path)) return;
    out.poison();
    float ms = 0;
    {
      labbook::lab::NvtxPath range(path);
      ms = labbook::lab::median_kernel_ms(1 + opt_.repeat, launch);
    }
    out.download(result_);
    const std::size_t wrong =
        labbook::lab::first_wrong(result_.size(), [&](std::size_t i) { return result_[i] == expected(i); });
    const bool correct = wrong == result_.size();
    if (!correct)
      std::fprintf(stderr, "%s: element %zu is %u, expected %u\n", path.c_str(), wrong, result_[wrong], expected(wrong));
    log_.record(path, ms, correct);
  }

  // The table kernels over the first `entries` words of c_table and of `d_table` (its copy in
  // global memory): from constant memory in range `constant_path`, from global in `global_path`.
  void table_pair(const std::string& constant_path, const std::string& global_path, const std::uint32_t* d_table,
                  unsigned entries, bool divergent) {
    const unsigned blocks = 1024, block = 256, rounds = 1024, n = blocks * block;
    if (!log_.selected(constant_path) && !log_.selected(global_path)) return;
    std::vector<std::uint32_t> lane_sum(32);
    for (unsigned lane = 0; lane < 32; ++lane) lane_sum[lane] = k::table_sum(lane, rounds, divergent, entries);
    auto want = [&](std::size_t i) { return lane_sum[i % 32]; };
    DeviceBuffer<std::uint32_t> out(n);
    run(constant_path, out, [&] {
      if (divergent) k::tableConstant<true><<<blocks, block>>>(out.get(), rounds, entries);
      else k::tableConstant<false><<<blocks, block>>>(out.get(), rounds, entries);
    }, want);
    run(global_path, out, [&] {
      if (divergent) k::tableGlobal<true><<<blocks, block>>>(d_table, out.get(), rounds, entries);
      else k::tableGlobal<false><<<blocks, block>>>(d_table, out.get(), rounds, entries);
    }, want);
  }

  Options opt_;
  std::mt19937_64 rng_;
  std::vector<std::uint32_t> result_;
  labbook::lab::ExperimentLog log_;
};

}  // namespace

int main(int argc, char** argv) {
  const Options opt = parse_options(argc, argv);
  const cudaDeviceProp prop = labbook::lab::require_gpu();
  std::printf("lab 1 on %s (CC %d.%d): %d registers per block, %d threads per block at most "
              "(%d registers per thread in a full block), %zu bytes of constant memory\n",
              prop.name, prop.major, prop.minor, prop.regsPerBlock, prop.maxThreadsPerBlock,
              prop.regsPerBlock / prop.maxThreadsPerBlock, prop.totalConstMem);

  Lab lab(opt);
  // Working sets: powers of two from 4 KiB, and two more where L2's two partitions part ways:
  // the largest multiple of 8 MiB up to half of L2 (one partition) and up to 4/5 of L2
  // (beyond one partition, inside both). On an H100 (50 MiB of L2): 24 MiB and 40 MiB.
  const std::uint64_t largest = std::min<std::uint64_t>(opt.max_ws, prop.totalGlobalMem / 4);
  std::vector<std::uint64_t> working_sets;
  for (std::uint64_t ws = 4096; ws <= largest; ws *= 2) working_sets.push_back(ws);
  const std::uint64_t l2 = static_cast<std::uint64_t>(prop.l2CacheSize), step = 8ull << 20;
  for (const std::uint64_t at_most : {l2 / 2, l2 * 4 / 5}) {
    const std::uint64_t ws = at_most / step * step;
    if (ws >= step && ws <= largest) working_sets.push_back(ws);
  }
  std::sort(working_sets.begin(), working_sets.end());
  working_sets.erase(std::unique(working_sets.begin(), working_sets.end()), working_sets.end());
  for (const std::uint64_t ws : working_sets) lab.global_chase(ws);
  lab.shared_chase();
  lab.constant_chase();
  lab.register_chain();
  lab.local_arrays();
  lab.register_cap();
  lab.tables();
  lab.device_symbol();
  return lab.report();
}
