#pragma once
// Times kernel launches with CUDA events and reports the median, so a lab prints its own
// numbers without any profiler.
#include <vector>

#include "cuda_check.h"
#include "median.h"

namespace labbook::lab {

/// Runs `launch` `count` times, each between two events; returns the median in ms.
/// Checks the launch and the execution of every run.
template <typename Launch>
float median_kernel_ms(int count, Launch&& launch) {
  cudaEvent_t start, stop;
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&stop));
  std::vector<float> ms;
  for (int r = 0; r < count; ++r) {
    CUDA_CHECK(cudaEventRecord(start));
    launch();
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaEventRecord(stop));
    CUDA_CHECK(cudaEventSynchronize(stop));
    float t = 0;
    CUDA_CHECK(cudaEventElapsedTime(&t, start, stop));
    ms.push_back(t);
  }
  CUDA_CHECK(cudaEventDestroy(start));
  CUDA_CHECK(cudaEventDestroy(stop));
  return median(ms);
}

}  // namespace labbook::lab
