#pragma once
// The default stream's implicit synchronisation (004, « NULL-Stream »; 000, VI-B: « Tout
// appel de kernel ou opération de mémoire sans le paramètre de flux ne commence qu'à la fin
// des autres opérations »): a kernel spinning --spin-ms on stream A, a tiny kernel on the
// default stream (stream 0, cudaStreamLegacy), a second spinning kernel on stream B; 1 + repeat times.
//   default_stream/legacy        A and B made by cudaStreamCreate: the tiny kernel on the legacy
//                                default stream waits for A, and B waits for it: the spins run
//                                one after the other;
//   default_stream/non_blocking  A and B made with cudaStreamNonBlocking: they do not wait for
//                                the legacy default stream, nor it for them;
//   default_stream/per_thread    A and B as in legacy, the tiny kernel on the per-thread default
//                                stream (cudaStreamPerThread, what --default-stream per-thread
//                                makes of stream 0): it does not wait for streams A and B.
#include <string>
#include <vector>

#include "lab_run.h"
#include "stream_set.h"
#include "nvtx_range.h"
#include "streams.cuh"

namespace labbook::lab {

inline void default_stream_experiment(LabRun& run, const std::string& variant, unsigned flags, cudaStream_t tiny_stream) {
  const std::string path = "default_stream/" + variant;
  if (!run.selected(path)) return;
  const int runs = 1 + run.opt.repeat;
  Streams streams(2, flags);
  Tags tags(3 * static_cast<std::size_t>(runs));
  CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<double> ms;
  {
    NvtxPath range(path);
    for (int r = 0; r < runs; ++r) {
      const auto slot = static_cast<unsigned>(3 * r);
      for (unsigned i = 0; i < 3; ++i) tags.expect(slot + i, slot + i + 1);
      ms.push_back(device_wall_ms([&] {
        kernels::spinFor<<<1, 32, 0, streams[0]>>>(run.spin_ns(), tags.get(), slot, slot + 1);
        kernels::spinCycles<<<1, 32, 0, tiny_stream>>>(0, tags.get(), slot + 1, slot + 2);
        kernels::spinFor<<<1, 32, 0, streams[1]>>>(run.spin_ns(), tags.get(), slot + 2, slot + 3);
      }));
    }
  }
  run.record(path, median(ms), tags.right(path));
}

inline void run_default_stream(LabRun& run) {
  default_stream_experiment(run, "legacy", cudaStreamDefault, cudaStreamLegacy);
  default_stream_experiment(run, "non_blocking", cudaStreamNonBlocking, cudaStreamLegacy);
  default_stream_experiment(run, "per_thread", cudaStreamDefault, cudaStreamPerThread);
}

}  // namespace labbook::lab
