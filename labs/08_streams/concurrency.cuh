#pragma once
// How many kernels run at once (004, « CUDA-Streams »: « bei Hochwanner können vier Kernel
// parallel laufen »): concurrency/streams=N launches one kernel of one 32-thread block
// spinning --spin-ms on each of N streams (N = 1, 2, 4, ... --max-streams), 1 + repeat times.
// Each kernel needs almost nothing of an SM, so what limits the count is how many grids the
// GPU keeps resident (128 on compute capability 9.0: the default sweep goes past it).
#include <string>
#include <vector>

#include "lab_run.h"
#include "stream_set.h"
#include "nvtx_range.h"
#include "streams.cuh"

namespace labbook::lab {

inline void run_concurrency(LabRun& run) {
  const int runs = 1 + run.opt.repeat;
  std::vector<unsigned> counts;
  std::vector<std::string> paths;
  for (unsigned n = 1; n <= run.opt.max_streams; n *= 2) {
    counts.push_back(n);
    paths.push_back("concurrency/streams=" + std::to_string(n));
  }
  if (!run.any_selected(paths)) return;
  NvtxRange group("concurrency");   // opened once around the sweep: the source's figure is the group's
  for (std::size_t c = 0; c < counts.size(); ++c) {
    const unsigned n = counts[c];
    const std::string& path = paths[c];
    if (!run.selected(path)) continue;
    Streams streams(n);   // made and destroyed outside the experiment's range
    Tags tags(static_cast<std::size_t>(n) * static_cast<std::size_t>(runs));
    CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<double> ms;
    {
      NvtxRange range("streams=" + std::to_string(n));
      for (int r = 0; r < runs; ++r)
        ms.push_back(device_wall_ms([&] {
          for (unsigned i = 0; i < n; ++i) {
            const unsigned slot = static_cast<unsigned>(r) * n + i;
            tags.expect(slot, slot + 1);
            kernels::spinFor<<<1, 32, 0, streams[i]>>>(run.spin_ns(), tags.get(), slot, slot + 1);
          }
        }));
    }
    run.record(path, median(ms), tags.right(path));
  }
}

}  // namespace labbook::lab
