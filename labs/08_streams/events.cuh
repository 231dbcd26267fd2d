#pragma once
// Events (004, « CUDA-Event-Operationen »; 000, VI-C):
//   events/pairs                 `pairs` event pairs on one stream, pair i around a kernel that
//                                spins i x 32 SM cycles: intervals of 3 to 20 µs (launch included) that
//                                grow in steps of about 16 ns;
//   events/pairs/step            payload: the smallest difference between two distinct
//                                readings of cudaEventElapsedTime, in ns (the timer's resolution:
//                                every reading is a whole number of its ticks);
//   events/pairs/smallest        payload: the smallest non-zero reading, in ns;
//   events/wait/default          a kernel spinning --spin-ms, then cudaEventSynchronize on an
//   events/wait/blocking_sync    event made with cudaEventDefault or with cudaEventBlockingSync;
//   events/wait/<flag>/cpu_busy  payload: the share of the wait the thread spent on a CPU, %.
#include <cmath>
#include <string>
#include <vector>

#include "lab_run.h"
#include "stream_set.h"
#include "nvtx_range.h"
#include "streams.cuh"

namespace labbook::lab {

namespace events {

/// SM cycles added to each pair's spin: about 16 ns at the H100's clock.
constexpr long long kCycleStep = 32;

/// The timer's tick (the smallest gap between distinct readings) and the smallest non-zero
/// reading, in ns; 0 where the readings give none.
struct Readings {
  double step_ns = 0, smallest_ns = 0;
};

inline Readings analyse(std::vector<float> ms) {
  std::sort(ms.begin(), ms.end());
  ms.erase(std::unique(ms.begin(), ms.end()), ms.end());
  Readings r;
  for (std::size_t i = 0; i < ms.size(); ++i) {
    if (ms[i] > 0 && r.smallest_ns == 0) r.smallest_ns = ms[i] * 1e6;
    if (i > 0) {
      const double gap = (static_cast<double>(ms[i]) - static_cast<double>(ms[i - 1])) * 1e6;
      if (r.step_ns == 0 || gap < r.step_ns) r.step_ns = gap;
    }
  }
  return r;
}

}  // namespace events

inline void event_pairs(LabRun& run) {
  const std::string path = "events/pairs";
  if (!run.selected(path)) return;
  const unsigned pairs = run.opt.pairs;
  Tags tags(pairs);
  Streams stream(1);
  std::vector<cudaEvent_t> start(pairs), stop(pairs);
  for (unsigned i = 0; i < pairs; ++i) {
    CUDA_CHECK(cudaEventCreate(&start[i]));
    CUDA_CHECK(cudaEventCreate(&stop[i]));
    tags.expect(i, i + 1);
  }
  std::vector<float> ms(pairs);
  events::Readings readings;
  {
    NvtxPath range(path);
    for (unsigned i = 0; i < pairs; ++i) {
      CUDA_CHECK(cudaEventRecord(start[i], stream[0]));
      kernels::spinCycles<<<1, 32, 0, stream[0]>>>(events::kCycleStep * i, tags.get(), i, i + 1);
      CUDA_CHECK(cudaEventRecord(stop[i], stream[0]));
    }
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaStreamSynchronize(stream[0]));
    for (unsigned i = 0; i < pairs; ++i) CUDA_CHECK(cudaEventElapsedTime(&ms[i], start[i], stop[i]));
    readings = events::analyse(ms);
    { NvtxRange step("step", readings.step_ns); }
    { NvtxRange smallest("smallest", readings.smallest_ns); }
  }
  for (unsigned i = 0; i < pairs; ++i) {
    CUDA_CHECK(cudaEventDestroy(start[i]));
    CUDA_CHECK(cudaEventDestroy(stop[i]));
  }
  std::printf("%-32s step between readings %.1f ns, smallest reading %.1f ns (%u pairs)\n", path.c_str(),
              readings.step_ns, readings.smallest_ns, pairs);
  run.record(path, median(ms), tags.right(path) && readings.step_ns > 0);
}

/// cudaEventSynchronize on an event behind a spinning kernel, 1 + repeat times; a
/// <path>/cpu_busy range per wait carries the share of it the thread was on a CPU.
inline void event_wait(LabRun& run, const std::string& flag_name, unsigned flags) {
  const std::string path = "events/wait/" + flag_name;
  if (!run.selected(path)) return;
  const int runs = 1 + run.opt.repeat;
  Tags tags(static_cast<std::size_t>(runs));
  Streams stream(1);
  cudaEvent_t done;
  CUDA_CHECK(cudaEventCreateWithFlags(&done, flags));
  std::vector<double> busy_pct, wait_ms;
  {
    NvtxPath range(path);
    for (int r = 0; r < runs; ++r) {
      tags.expect(static_cast<std::size_t>(r), static_cast<std::uint32_t>(r + 1));
      kernels::spinFor<<<1, 32, 0, stream[0]>>>(run.spin_ns(), tags.get(), static_cast<unsigned>(r), static_cast<std::uint32_t>(r + 1));
      CUDA_CHECK(cudaGetLastError());
      CUDA_CHECK(cudaEventRecord(done, stream[0]));
      const double cpu = thread_cpu_ns(), wall = wall_ns();
      CUDA_CHECK(cudaEventSynchronize(done));
      const double waited = wall_ns() - wall;
      busy_pct.push_back(100.0 * (thread_cpu_ns() - cpu) / waited);
      wait_ms.push_back(waited / 1e6);
    }
    for (double pct : busy_pct) NvtxRange busy("cpu_busy", pct);   // one payload per wait: its spread is the noise
  }
  CUDA_CHECK(cudaEventDestroy(done));
  std::printf("%-32s the thread was on a CPU %.1f %% of the wait\n", path.c_str(), median(busy_pct));
  run.record(path, median(wait_ms), tags.right(path));
}

inline void run_events(LabRun& run) {
  event_pairs(run);
  event_wait(run, "default", cudaEventDefault);
  event_wait(run, "blocking_sync", cudaEventBlockingSync);
}

}  // namespace labbook::lab
