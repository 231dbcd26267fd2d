#pragma once
// Experiment 4: zero-copy memory and UVA (003_c67e0f909fb510d6.txt, « Mémoire zéro-copie
// avec UVA »). sumArraysZeroCopy adds two float arrays that live
//   zerocopy/device/elements=N  in device memory (copied there beforehand),
//   zerocopy/mapped/elements=N  in mapped host memory, through cudaHostGetDevicePointer,
//   zerocopy/uva/elements=N     in mapped host memory, through the host pointers themselves;
// C is in device memory each time, as in the source's call. The same kernel then writes
// instead of reading across the bus (004_12112d3317679e06.txt: « Reine Schreibzugriffe sind
// günstiger »):
//   zerocopy/mapped_write/elements=N  A and B in device memory, C in mapped host memory
//                                     (through cudaHostGetDevicePointer).
// Per element the reading kernels move 8 bytes across the bus, the writing one 4.
// Only kernels run in the ranges.
#include <cstring>
#include <string>
#include <vector>

#include "device_buffer.h"
#include "host_memory.h"
#include "lab_run.h"
#include "parallel_check.h"
#include "random_data.h"
#include "transfers.cuh"

namespace labbook::lab {

/// Kernels that cross the bus jitter with the host's link: up to 2^22 elements (a few ms
/// each), 20 launches narrow the median's interval to the 6th to 15th of them.
inline int zero_copy_launches(const Run& run, std::size_t elements) {
  return elements <= (std::size_t{1} << 22) ? 20 : 1 + run.opt.repeat;
}

inline void run_zero_copy(Run& run) {
  const auto sizes = powers_of_four(1024, run.opt.max_elements);
  std::vector<std::string> all;
  for (const char* g : {"device", "mapped", "uva", "mapped_write"})
    for (auto n : sizes) all.push_back(std::string("zerocopy/") + g + "/elements=" + std::to_string(n));
  if (!run.any_selected(all)) return;

  const std::size_t max_n = sizes.back();
  HostMemory<float> a(HostKind::Mapped, max_n), b(HostKind::Mapped, max_n);
  RandomFloats rng(run.opt.seed);
  for (std::size_t i = 0; i < max_n; ++i) a[i] = rng.next();
  for (std::size_t i = 0; i < max_n; ++i) b[i] = rng.next();
  HostMemory<float> mapped_c(HostKind::Mapped, max_n);
  DeviceBuffer<float> da(max_n), db(max_n), dc(max_n);
  CUDA_CHECK(cudaMemcpy(da.get(), a.get(), max_n * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(db.get(), b.get(), max_n * sizeof(float), cudaMemcpyHostToDevice));
  std::vector<float> c;

  // UVA: one virtual address space, so the mapped allocation's device pointer is its host pointer.
  const bool same_pointer = a.device_pointer() == a.get() && b.device_pointer() == b.get();
  std::printf("UVA: mapped host pointer %p, device pointer %p (%s)\n", static_cast<void*>(a.get()),
              static_cast<void*>(a.device_pointer()), same_pointer ? "the same" : "different");

  struct Group {
    const char* name;
    const float *a, *b;
    float* c;
  };
  const Group groups[] = {{"device", da.get(), db.get(), dc.get()},
                          {"mapped", a.device_pointer(), b.device_pointer(), dc.get()},
                          {"uva", a.get(), b.get(), dc.get()},
                          {"mapped_write", da.get(), db.get(), mapped_c.device_pointer()}};
  for (const auto& g : groups) {
    const std::string group = std::string("zerocopy/") + g.name;
    std::vector<std::string> paths;
    for (auto n : sizes) paths.push_back(group + "/elements=" + std::to_string(n));
    if (!run.any_selected(paths)) continue;
    NvtxPath group_range(group);
    for (auto n : sizes) {
      const std::string path = group + "/elements=" + std::to_string(n);
      if (!run.selected(path)) continue;
      const bool to_host = g.c != dc.get();
      if (to_host) std::memset(static_cast<void*>(mapped_c.get()), 0xFF, n * sizeof(float));
      else dc.poison();
      const unsigned block = 512;
      const unsigned grid = static_cast<unsigned>((n + block - 1) / block);
      double ms = 0;
      {
        NvtxRange experiment("elements=" + std::to_string(n));
        ms = median_ms(zero_copy_launches(run, n), [&] { kernels::sumArraysZeroCopy<<<grid, block>>>(g.a, g.b, g.c, n); });
      }
      // A result in mapped memory is read where the kernel wrote it; one in device memory is
      // copied back, outside the range.
      c.resize(n);
      if (to_host) std::memcpy(c.data(), mapped_c.get(), n * sizeof(float));
      else CUDA_CHECK(cudaMemcpy(c.data(), dc.get(), n * sizeof(float), cudaMemcpyDeviceToHost));
      // Float addition is correctly rounded on both sides: the comparison is exact.
      const bool right = first_wrong(n, [&](std::size_t i) { return c[i] == a[i] + b[i]; }) == n &&
                         (std::string(g.name) != "uva" || same_pointer);
      run.add({path, ms, gb_per_s(3.0 * sizeof(float) * static_cast<double>(n), ms), right});
    }
  }
}

}  // namespace labbook::lab
