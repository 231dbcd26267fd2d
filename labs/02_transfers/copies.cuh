#pragma once
// Experiment 1: cudaMemcpy host -> device and device -> host, 4 KiB to 1 GiB, from four kinds
// of host memory: pageable (new[]), pinned (cudaMallocHost), registered (malloc, then
// cudaHostRegister: 004_12112d3317679e06.txt) and write-combined (cudaHostAlloc with
// cudaHostAllocWriteCombined, host -> device only: the CPU reads it too slowly to check a
// download); plus device -> device copies of the same sizes (the device memory the sources
// set beside the bus). Ranges: copy/<memory>/<direction>/bytes=N; the group range
// (copy/pinned/h2d) is opened once around its whole sweep.
#include <atomic>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "device_buffer.h"
#include "host_memory.h"
#include "lab_run.h"
#include "parallel_check.h"

namespace labbook::lab {

namespace copies {

/// Small copies are quick and noisy: more of them.
inline int repetitions(const Run& run, std::size_t bytes) {
  return bytes >= (64u << 20) ? run.opt.repeat : bytes >= (1u << 20) ? 10 : 20;
}

inline std::string path(const std::string& group, std::size_t bytes) {
  return group + "/bytes=" + std::to_string(bytes);
}

inline std::vector<std::size_t> sizes(const Run& run) { return powers_of_four(4096, run.opt.max_copy_bytes); }

/// The largest size of the sweep `group` that --only selects; 0 when none is.
inline std::size_t largest_selected(const Run& run, const std::string& group) {
  std::size_t largest = 0;
  for (auto s : sizes(run))
    if (run.selected(path(group, s))) largest = s;
  return largest;
}

/// Times `copy(bytes)` inside range group/bytes=N for every size of the sweep, then checks
/// the result with `check(bytes)`.
template <typename Copy, typename Check>
void sweep(Run& run, const std::string& group, double bytes_factor, Copy&& copy, Check&& check) {
  if (largest_selected(run, group) == 0) return;
  NvtxPath group_range(group);
  for (auto bytes : sizes(run)) {
    if (!run.selected(path(group, bytes))) continue;
    double ms = 0;
    {
      NvtxRange experiment("bytes=" + std::to_string(bytes));
      ms = median_ms(repetitions(run, bytes), [&] { copy(bytes); });
    }
    run.add({path(group, bytes), ms, gb_per_s(bytes_factor * static_cast<double>(bytes), ms), check(bytes)});
  }
}

/// The copy pattern in `words` words at `p`.
inline void fill(std::uint64_t* p, std::size_t words, std::uint64_t seed) {
  for (std::size_t i = 0; i < words; ++i) p[i] = pattern_word(i, seed);
}

/// Host -> device from `source` then device -> host into `target` (host memory of the kind
/// `memory`, max_copy_bytes each, `source` holding the pattern). The device buffer ends the
/// host -> device sweep holding the source pattern, so every device -> host copy must bring
/// back exactly the pattern's first bytes.
inline void both_ways(Run& run, const std::string& memory, const std::uint64_t* source, std::uint64_t* target,
                      DeviceBuffer<std::uint64_t>& device) {
  const std::size_t max_bytes = run.opt.max_copy_bytes;
  sweep(run, "copy/" + memory + "/h2d", 1.0,
        [&](std::size_t bytes) { CUDA_CHECK(cudaMemcpy(device.get(), source, bytes, cudaMemcpyHostToDevice)); },
        [](std::size_t) { return true; });   // checked by the device -> host sweep

  // The device -> host sweep needs the whole pattern on the device, whatever --only chose.
  CUDA_CHECK(cudaMemcpy(device.get(), source, max_bytes, cudaMemcpyHostToDevice));
  sweep(run, "copy/" + memory + "/d2h", 1.0,
        [&](std::size_t bytes) { CUDA_CHECK(cudaMemcpy(target, device.get(), bytes, cudaMemcpyDeviceToHost)); },
        [&](std::size_t bytes) {
          const bool ok = std::memcmp(target, source, bytes) == 0;
          std::memset(static_cast<void*>(target), 0xFF, bytes);   // poison for the next size
          return ok;
        });
}

}  // namespace copies

/// Pageable or pinned memory both ways; device -> device when `with_device_copies`.
inline void run_copies(Run& run, HostKind kind, bool with_device_copies) {
  const std::size_t max_bytes = run.opt.max_copy_bytes;
  const std::size_t words = max_bytes / sizeof(std::uint64_t);
  HostMemory<std::uint64_t> source(kind, words), target(kind, words);
  copies::fill(source.get(), words, run.opt.seed);
  DeviceBuffer<std::uint64_t> device(words);
  copies::both_ways(run, host_kind_name(kind), source.get(), target.get(), device);

  if (!with_device_copies) return;
  DeviceBuffer<std::uint64_t> copy(words);
  copy.poison();
  // A device-to-device copy reads and writes its size: twice the bytes through DRAM.
  copies::sweep(run, "copy/device/d2d", 2.0,
                [&](std::size_t bytes) { CUDA_CHECK(cudaMemcpy(copy.get(), device.get(), bytes, cudaMemcpyDeviceToDevice)); },
                [](std::size_t) { return true; });
  // Checked once the sweep's ranges are closed, so the check's copy belongs to no experiment:
  // every size copied a prefix of the same pattern, the largest all of it.
  if (!run.any_selected({copies::path("copy/device/d2d", max_bytes)})) return;
  std::memset(static_cast<void*>(target.get()), 0xFF, max_bytes);
  CUDA_CHECK(cudaMemcpy(target.get(), copy.get(), max_bytes, cudaMemcpyDeviceToHost));
  run.add({"copy/device/d2d (all sizes checked)", 0, "", std::memcmp(target.get(), source.get(), max_bytes) == 0});
}

/// Registered memory (malloc + cudaHostRegister) both ways, timed like pinned memory.
inline void run_registered_copies(Run& run) {
  if (copies::largest_selected(run, "copy/registered/h2d") == 0 && copies::largest_selected(run, "copy/registered/d2h") == 0)
    return;
  const std::size_t words = run.opt.max_copy_bytes / sizeof(std::uint64_t);
  HostMemory<std::uint64_t> source(HostKind::Registered, words), target(HostKind::Registered, words);
  copies::fill(source.get(), words, run.opt.seed);
  DeviceBuffer<std::uint64_t> device(words);
  copies::both_ways(run, "registered", source.get(), target.get(), device);
}

/// Write-combined memory host -> device. The CPU writes the pattern into it (write-combining
/// gathers those stores) but never reads it back: the check downloads the device buffer into
/// pageable memory and compares it with the pattern computed again.
inline void run_write_combined_copies(Run& run) {
  const std::string group = "copy/write_combined/h2d";
  const std::size_t checked = copies::largest_selected(run, group);
  if (checked == 0) return;
  const std::size_t words = run.opt.max_copy_bytes / sizeof(std::uint64_t);
  HostMemory<std::uint64_t> source(HostKind::WriteCombined, words);
  copies::fill(source.get(), words, run.opt.seed);
  // Write-combined stores may wait in the core's write-combining buffers; a full fence sends
  // them to memory before a copy engine reads it.
  std::atomic_thread_fence(std::memory_order_seq_cst);
  DeviceBuffer<std::uint64_t> device(words);
  device.poison();
  copies::sweep(run, group, 1.0,
                [&](std::size_t bytes) { CUDA_CHECK(cudaMemcpy(device.get(), source.get(), bytes, cudaMemcpyHostToDevice)); },
                [](std::size_t) { return true; });   // checked below, outside the sweep's ranges
  // Every size copied a prefix of the same pattern into a poisoned buffer: the largest one
  // copied must be there in full.
  std::vector<std::uint64_t> got(checked / sizeof(std::uint64_t));
  CUDA_CHECK(cudaMemcpy(got.data(), device.get(), checked, cudaMemcpyDeviceToHost));
  const std::uint64_t seed = run.opt.seed;
  const bool ok = first_wrong(got.size(), [&](std::size_t i) { return got[i] == pattern_word(i, seed); }) == got.size();
  run.add({group + " (all sizes checked)", 0, "", ok});
}

}  // namespace labbook::lab
