#pragma once
// Experiment 6: unified memory (003_c67e0f909fb510d6.txt, « Mise en œuvre de l'addition
// matricielle avec la mémoire unifiée »). sumMatrixGPU adds two nx x ny float matrices:
//   unified/manual            cudaMalloc + cudaMemcpy both ways (the book's sumMatrixGPUManual)
//   unified/managed           cudaMallocManaged, pages start on the host (sumMatrixGPUManaged)
//   unified/managed_warmup/warmup, .../kernel   the same after the book's warm-up launch,
//                             which covers one element (nx = ny = 1)
//   unified/managed_prefetch  cudaMemPrefetchAsync to the GPU before, C back to the host after
// Each range ends with the host reading C, so every variant pays for bringing the result
// back. The collector counts the migrations and page faults in each range. In manual and
// managed_prefetch, whose pages are on the GPU when the kernel starts, the kernel runs
// `repeat` times: its repeats are the noise that the claim comparing the two is decided
// against (at the default 3 repeats, the extra kernels add well under 1 % to either range's time).
// unified/managed runs it once: its first launch is the one that faults the pages in.
#include <chrono>
#include <string>

#include "device_buffer.h"
#include "host_memory.h"
#include "lab_run.h"
#include "parallel_check.h"
#include "random_data.h"
#include "transfers.cuh"

namespace labbook::lab {

namespace unified {

/// Where cudaMemPrefetchAsync sends pages: the GPU `device`, or the host for cudaCpuDeviceId.
inline void prefetch(const void* p, std::size_t bytes, int device, cudaStream_t stream = 0) {
#if CUDART_VERSION >= 13000
  cudaMemLocation where{};
  where.type = device == cudaCpuDeviceId ? cudaMemLocationTypeHost : cudaMemLocationTypeDevice;
  where.id = device == cudaCpuDeviceId ? 0 : device;
  CUDA_CHECK(cudaMemPrefetchAsync(p, bytes, where, 0, stream));
#else
  CUDA_CHECK(cudaMemPrefetchAsync(p, bytes, device, stream));
#endif
}

/// A, B random and C poisoned, written on the host: in managed memory, every page starts
/// resident on the host.
struct Matrices {
  HostMemory<float> a, b, c;
  Matrices(HostKind kind, std::size_t n, std::uint64_t seed) : a(kind, n), b(kind, n), c(kind, n) {
    RandomFloats rng(seed);
    for (std::size_t i = 0; i < n; ++i) a[i] = rng.next();
    for (std::size_t i = 0; i < n; ++i) b[i] = rng.next();
    std::memset(static_cast<void*>(c.get()), 0xFF, c.bytes());
  }
  /// Reads all of C on the host, as a program using its result does (a sum, so that the
  /// compiler keeps the reads).
  double use_result() const {
    double s = 0;
    for (std::size_t i = 0; i < c.size(); ++i) s += c[i];
    return s;
  }
  bool right() const {
    return first_wrong(c.size(), [&](std::size_t i) { return c[i] == a[i] + b[i]; }) == c.size();
  }
};

}  // namespace unified

inline void run_unified_memory(Run& run) {
  const std::vector<std::string> paths = {"unified/manual", "unified/managed", "unified/managed_warmup/warmup",
                                          "unified/managed_warmup/kernel", "unified/managed_prefetch"};
  if (!run.any_selected(paths)) return;
  int device = 0, managed = 0, concurrent = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  CUDA_CHECK(cudaDeviceGetAttribute(&managed, cudaDevAttrManagedMemory, device));
  CUDA_CHECK(cudaDeviceGetAttribute(&concurrent, cudaDevAttrConcurrentManagedAccess, device));
  std::printf("managed memory: %s; on-demand page migration (concurrentManagedAccess): %s\n", managed ? "yes" : "no",
              concurrent ? "yes" : "no");
  if (!managed) {
    std::printf("unified memory experiments skipped: this GPU has no managed memory\n");
    return;
  }
  const unsigned side = run.opt.um_side;
  const std::size_t n = static_cast<std::size_t>(side) * side;
  const dim3 block(32, 32), grid((side + 31) / 32, (side + 31) / 32);
  auto add = [&](const char* path, double ms, const unified::Matrices& m, double sum) {
    char detail[64];
    std::snprintf(detail, sizeof detail, "%ux%u floats (sum %.3g)", side, side, sum);
    run.add({path, ms, detail, m.right()});
  };
  // The kernel `repeat` times on pages already on the GPU.
  auto sum_on_gpu = [&](const float* a, const float* b, float* c) {
    for (int r = 0; r < run.opt.repeat; ++r) {
      kernels::sumMatrixGPU<<<grid, block>>>(a, b, c, side, side);
      CUDA_CHECK(cudaGetLastError());
    }
  };
  // Wall time of a range's work: its copies, kernels, migrations and the host's reads.
  auto timed = [](const char* path, auto&& work) {
    NvtxPath range(path);
    const auto start = std::chrono::steady_clock::now();
    const double sum = work();
    return std::pair<double, double>{std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count(), sum};
  };

  if (run.selected("unified/manual")) {
    unified::Matrices m(HostKind::Pageable, n, run.opt.seed);
    DeviceBuffer<float> da(n), db(n), dc(n);
    dc.poison();
    auto [ms, sum] = timed("unified/manual", [&] {
      CUDA_CHECK(cudaMemcpy(da.get(), m.a.get(), m.a.bytes(), cudaMemcpyHostToDevice));
      CUDA_CHECK(cudaMemcpy(db.get(), m.b.get(), m.b.bytes(), cudaMemcpyHostToDevice));
      sum_on_gpu(da.get(), db.get(), dc.get());
      CUDA_CHECK(cudaMemcpy(m.c.get(), dc.get(), m.c.bytes(), cudaMemcpyDeviceToHost));
      return m.use_result();
    });
    add("unified/manual", ms, m, sum);
  }
  if (run.selected("unified/managed")) {
    unified::Matrices m(HostKind::Managed, n, run.opt.seed);
    auto [ms, sum] = timed("unified/managed", [&] {
      kernels::sumMatrixGPU<<<grid, block>>>(m.a.get(), m.b.get(), m.c.get(), side, side);
      CUDA_CHECK(cudaGetLastError());
      CUDA_CHECK(cudaDeviceSynchronize());
      return m.use_result();
    });
    add("unified/managed", ms, m, sum);
  }
  if (run.any_selected({"unified/managed_warmup/warmup", "unified/managed_warmup/kernel"})) {
    unified::Matrices m(HostKind::Managed, n, run.opt.seed);
    NvtxRange group("unified");
    NvtxRange variant("managed_warmup");
    // The book's warm-up: the same kernel on a 1 x 1 matrix. Before Pascal a launch moved
    // every managed page to the GPU; with on-demand migration it moves what it touches.
    {
      NvtxRange warmup("warmup");
      kernels::sumMatrixGPU<<<grid, block>>>(m.a.get(), m.b.get(), m.c.get(), 1, 1);
      CUDA_CHECK(cudaGetLastError());
      CUDA_CHECK(cudaDeviceSynchronize());
    }
    double sum = 0;
    const auto start = std::chrono::steady_clock::now();
    {
      NvtxRange kernel("kernel");
      kernels::sumMatrixGPU<<<grid, block>>>(m.a.get(), m.b.get(), m.c.get(), side, side);
      CUDA_CHECK(cudaGetLastError());
      CUDA_CHECK(cudaDeviceSynchronize());
      sum = m.use_result();
    }
    add("unified/managed_warmup/kernel",
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count(), m, sum);
  }
  if (run.selected("unified/managed_prefetch") && !concurrent)
    std::printf("unified/managed_prefetch skipped: prefetching needs concurrentManagedAccess\n");
  else if (run.selected("unified/managed_prefetch")) {
    unified::Matrices m(HostKind::Managed, n, run.opt.seed);
    auto [ms, sum] = timed("unified/managed_prefetch", [&] {
      unified::prefetch(m.a.get(), m.a.bytes(), device);
      unified::prefetch(m.b.get(), m.b.bytes(), device);
      unified::prefetch(m.c.get(), m.c.bytes(), device);
      sum_on_gpu(m.a.get(), m.b.get(), m.c.get());
      unified::prefetch(m.c.get(), m.c.bytes(), cudaCpuDeviceId);
      CUDA_CHECK(cudaDeviceSynchronize());
      return m.use_result();
    });
    add("unified/managed_prefetch", ms, m, sum);
  }
}

}  // namespace labbook::lab
