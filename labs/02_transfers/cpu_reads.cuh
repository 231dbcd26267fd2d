#pragma once
// Experiment 5: the CPU reading pinned memory, plain and write-combined
// (004_12112d3317679e06.txt: cudaHostAllocWriteCombined « ermöglicht u.U. eine effizientere
// Lesezugriffe der GPU zu Lasten der Lesegeschwindigkeit auf der CPU »; lab 2's copy sweep
// copy/write_combined/h2d measures the GPU's side). Both buffers hold the same 64 MiB of
// 64-bit words, written by the CPU just before; the program sums each 1 + repeat times, as
// any code using its data would:
//   cpu_read/pinned          cudaMallocHost: cacheable, as malloc's memory is
//   cpu_read/write_combined  cudaHostAlloc(..., cudaHostAllocWriteCombined): no load is cached
// The variant's range holds its sums; after them, an empty range inside it per sum,
// cpu_read/<variant>/bytes=N, carries that sum's time in ns as its payload (the report takes
// their median, and their spread is the noise a claim is decided against). Every sum must
// equal the pattern's.
#include <atomic>
#include <string>
#include <vector>

#include "host_memory.h"
#include "host_timer.h"
#include "lab_run.h"

namespace labbook::lab {

namespace cpu_reads {

/// Bytes each variant reads: more than most CPUs' last-level cache, so that the plain buffer
/// is read mostly from DRAM too (a server CPU's L3 may still hold part of it).
constexpr std::size_t kBytes = std::size_t{64} << 20;

/// The sum of `words` words at `p`, read in order (wrapping, as unsigned arithmetic does).
inline std::uint64_t sum(const std::uint64_t* p, std::size_t words) {
  std::uint64_t s = 0;
  for (std::size_t i = 0; i < words; ++i) s += p[i];
  return s;
}

}  // namespace cpu_reads

inline void run_cpu_reads(Run& run) {
  const std::size_t words = cpu_reads::kBytes / sizeof(std::uint64_t);
  const std::string size = "bytes=" + std::to_string(cpu_reads::kBytes);
  const std::string pinned_path = "cpu_read/pinned/" + size, combined_path = "cpu_read/write_combined/" + size;
  if (!run.any_selected({pinned_path, combined_path})) return;

  HostMemory<std::uint64_t> pinned(HostKind::Pinned, words);
  HostMemory<std::uint64_t> combined(HostKind::WriteCombined, words);
  std::uint64_t expected = 0;
  for (std::size_t i = 0; i < words; ++i) expected += pattern_word(i, run.opt.seed);

  struct Variant {
    const char* name;
    std::uint64_t* data;
    const std::string& path;
  };
  for (const Variant& v : {Variant{"pinned", pinned.get(), pinned_path}, Variant{"write_combined", combined.get(), combined_path}}) {
    if (!run.selected(v.path)) continue;
    for (std::size_t i = 0; i < words; ++i) v.data[i] = pattern_word(i, run.opt.seed);
    std::atomic_thread_fence(std::memory_order_seq_cst);   // write-combined stores leave their buffers
    std::vector<double> ns;
    bool right = true;
    {
      NvtxPath variant_range(std::string("cpu_read/") + v.name);
      for (int r = 0; r < 1 + run.opt.repeat; ++r) {
        std::uint64_t s = 0;
        ns.push_back(host_ns([&] { s = cpu_reads::sum(v.data, words); }));
        right = right && s == expected;
      }
      for (double sum_ns : ns) NvtxRange payload(size, sum_ns);
    }
    run.add({v.path, median(ns) / 1e6, gb_per_s(static_cast<double>(cpu_reads::kBytes), median(ns) / 1e6), right});
  }
}

}  // namespace labbook::lab
