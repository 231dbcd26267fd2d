#pragma once
// Kernels launching kernels (004, « Insbesondere können Kernel-Funktionen von
// Kernel-Funktionen aufgerufen werden »: the CPU no longer has to synchronise and launch;
// « Davon profitiert insbesondere das Master/Worker-Pattern »). One master/worker loop of
// `steps` steps, each step a worker kernel that advances a state, and a decision that needs
// the worker's result (go on until the state says done):
//   device_launch/host_loop     the host decides: launch the worker, copy the state back
//                               (which waits for the worker), read it, launch again;
//   device_launch/device_loop   a master kernel decides: it launches the worker, then itself
//                               as a tail launch, which starts once the worker is done.
//   .../per_step                payload: the loop's wall time per step, ns, one range per run.
// Device-side launches need relocatable device code and the device runtime (CMakeLists.txt).
// CUDA 12 removed cudaDeviceSynchronize in kernels; a tail launch (cudaStreamTailLaunch) is
// how a kernel now waits for the work it launched.
#include <cstdint>
#include <string>
#include <vector>

#include "device_buffer.h"
#include "lab_run.h"
#include "nvtx_range.h"

namespace labbook::kernels {

/// What the worker advances: a value, the steps taken, and the steps wanted.
struct LoopState {
  std::uint32_t value;
  std::uint32_t steps;
  std::uint32_t wanted;
};

/// One step of work: a linear congruential step of the value.
__host__ __device__ inline std::uint32_t loop_step(std::uint32_t v) { return v * 1664525u + 1013904223u; }

__global__ void loopWorker(LoopState* s) {
  if (threadIdx.x == 0) {
    s->value = loop_step(s->value);
    s->steps += 1;
  }
}

/// The master: decides from the worker's result, launches it, and tail-launches itself to
/// decide again once the worker has finished.
__global__ void loopMaster(LoopState* s) {
  if (s->steps >= s->wanted) return;
  loopWorker<<<1, 32, 0, cudaStreamFireAndForget>>>(s);
  loopMaster<<<1, 1, 0, cudaStreamTailLaunch>>>(s);
}

}  // namespace labbook::kernels

namespace labbook::lab {

inline void device_launch_loop(LabRun& run, const std::string& name, unsigned steps) {
  const std::string path = "device_launch/" + name;
  if (!run.selected(path)) return;
  const bool on_device = name == "device_loop";
  const int runs = 1 + run.opt.repeat;
  std::uint32_t want = 1;
  for (unsigned i = 0; i < steps; ++i) want = kernels::loop_step(want);
  DeviceBuffer<kernels::LoopState> state(1);
  std::vector<double> per_step_ns;
  bool right = true;
  {
    NvtxPath range(path);
    for (int r = 0; r < runs; ++r) {
      const kernels::LoopState start{1, 0, steps};
      CUDA_CHECK(cudaMemcpy(state.get(), &start, sizeof start, cudaMemcpyHostToDevice));
      kernels::LoopState seen = start;
      const double ms = device_wall_ms([&] {
        if (on_device) {
          kernels::loopMaster<<<1, 1>>>(state.get());
          return;
        }
        while (seen.steps < seen.wanted) {
          kernels::loopWorker<<<1, 32>>>(state.get());
          CUDA_CHECK(cudaMemcpy(&seen, state.get(), sizeof seen, cudaMemcpyDeviceToHost));
        }
      });
      CUDA_CHECK(cudaMemcpy(&seen, state.get(), sizeof seen, cudaMemcpyDeviceToHost));
      right = right && seen.steps == steps && seen.value == want;
      per_step_ns.push_back(ms * 1e6 / steps);
    }
    for (double ns : per_step_ns) NvtxRange per_step("per_step", ns);   // one payload per run: its spread is the noise
  }
  std::printf("%-32s %.2f us per step (%u steps)\n", path.c_str(), median(per_step_ns) / 1e3, steps);
  run.record(path, median(per_step_ns) * steps / 1e6, right);
}

inline void run_device_launch(LabRun& run) {
  constexpr unsigned kSteps = 200;   // each host step leaves a launch and a copy in the trace: keep the recording small
  device_launch_loop(run, "host_loop", kSteps);
  device_launch_loop(run, "device_loop", kSteps);
}

}  // namespace labbook::lab
