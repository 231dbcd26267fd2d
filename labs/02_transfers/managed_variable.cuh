#pragma once
// Experiment 7: a static managed variable (003_c67e0f909fb510d6.txt, « La mémoire gérée peut
// être déclarée statiquement avec le mot-clé `__managed__` »: `__device__ __managed__ int y;`).
// Range managed/static: the host sets y = 40 by assignment, kernels::addToY<<<1, 1>>>(2) adds
// 2 on the GPU, cudaDeviceSynchronize (the host may touch managed memory only once the kernels
// using it are done, unless the GPU reports concurrentManagedAccess), and the host reads y by
// name. No cudaMemcpy anywhere: the unified-memory system moves y's page to the GPU and back,
// and the collector counts those migrations in the range. managed/static/y, an empty range
// inside it, carries the value the host read as its payload: 42 when all went right.
#include <chrono>

#include "lab_run.h"
#include "transfers_managed.cuh"

namespace labbook::lab {

inline void run_managed_variable(Run& run) {
  if (!run.any_selected({"managed/static", "managed/static/y"})) return;
  int device = 0, managed = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  CUDA_CHECK(cudaDeviceGetAttribute(&managed, cudaDevAttrManagedMemory, device));
  if (!managed) {
    std::printf("managed/static skipped: this GPU has no managed memory\n");
    return;
  }
  constexpr int kStart = 40, kIncrement = 2;
  int seen = 0;
  const auto start = std::chrono::steady_clock::now();
  {
    NvtxPath range("managed/static");
    kernels::y = kStart;
    kernels::addToY<<<1, 1>>>(kIncrement);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    seen = kernels::y;
    NvtxRange value("y", seen);
  }
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  char detail[32];
  std::snprintf(detail, sizeof detail, "y: %d -> %d", kStart, seen);
  run.add({"managed/static", ms, detail, seen == kStart + kIncrement});
}

}  // namespace labbook::lab
