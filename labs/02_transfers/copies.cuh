#pragma once
// Experiment 1: cudaMemcpy host -> device and device -> host from pageable and from pinned
// host memory, 4 KiB to 1 GiB, plus device -> device copies of the same sizes (the device
// memory the sources set beside the bus). Ranges: copy/<memory>/<direction>/bytes=N; the
// group range (copy/pinned/h2d) is opened once around its whole sweep.
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "device_buffer.h"
#include "host_memory.h"
#include "lab_run.h"

namespace labbook::lab {

namespace copies {

/// Small copies are quick and noisy: more of them.
inline int repetitions(const Run& run, std::size_t bytes) {
  return bytes >= (64u << 20) ? run.opt.repeat : bytes >= (1u << 20) ? 10 : 20;
}

inline std::string path(const std::string& group, std::size_t bytes) {
  return group + "/bytes=" + std::to_string(bytes);
}

/// Times `copy(bytes)` inside range group/bytes=N for every size of the sweep, then checks
/// the result with `check(bytes)`.
template <typename Copy, typename Check>
void sweep(Run& run, const std::string& group, double bytes_factor, Copy&& copy, Check&& check) {
  const auto sizes = powers_of_four(4096, run.opt.max_copy_bytes);
  std::vector<std::string> paths;
  for (auto s : sizes) paths.push_back(path(group, s));
  if (!run.any_selected(paths)) return;
  NvtxPath group_range(group);
  for (auto bytes : sizes) {
    if (!run.selected(path(group, bytes))) continue;
    double ms = 0;
    {
      NvtxRange experiment("bytes=" + std::to_string(bytes));
      ms = median_ms(repetitions(run, bytes), [&] { copy(bytes); });
    }
    run.add({path(group, bytes), ms, gb_per_s(bytes_factor * static_cast<double>(bytes), ms), check(bytes)});
  }
}

}  // namespace copies

/// Host -> device then device -> host for one kind of host memory; device -> device when
/// `with_device_copies`. The device buffer ends each host -> device sweep holding the source
/// pattern, so every device -> host copy must bring back exactly the pattern's first bytes.
inline void run_copies(Run& run, HostKind kind, bool with_device_copies) {
  const std::size_t max_bytes = run.opt.max_copy_bytes;
  const std::size_t words = max_bytes / sizeof(std::uint64_t);
  HostMemory<std::uint64_t> source(kind, words), target(kind, words);
  for (std::size_t i = 0; i < words; ++i) source[i] = pattern_word(i, run.opt.seed);
  DeviceBuffer<std::uint64_t> device(words);
  const std::string memory = host_kind_name(kind);

  copies::sweep(run, "copy/" + memory + "/h2d", 1.0,
                [&](std::size_t bytes) { CUDA_CHECK(cudaMemcpy(device.get(), source.get(), bytes, cudaMemcpyHostToDevice)); },
                [](std::size_t) { return true; });   // checked by the device -> host sweep

  // The device -> host sweep needs the whole pattern on the device, whatever --only chose.
  CUDA_CHECK(cudaMemcpy(device.get(), source.get(), max_bytes, cudaMemcpyHostToDevice));
  copies::sweep(run, "copy/" + memory + "/d2h", 1.0,
                [&](std::size_t bytes) { CUDA_CHECK(cudaMemcpy(target.get(), device.get(), bytes, cudaMemcpyDeviceToHost)); },
                [&](std::size_t bytes) {
                  const bool ok = std::memcmp(target.get(), source.get(), bytes) == 0;
                  std::memset(static_cast<void*>(target.get()), 0xFF, bytes);   // poison for the next size
                  return ok;
                });

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

}  // namespace labbook::lab
