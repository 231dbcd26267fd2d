// Where a metrics run's fixed cost goes, call by call (issue 34): the time of each CUPTI call
// from cuptiProfilerInitialize to the first pass's Stop, as labbook's RangeProfiler makes them
// (tools/probes/probe_profiler.h), then the later passes' Start and Stop. Two ways, one per
// process, since CUPTI's first use in a process is what is priced:
//   with-availability     cuptiProfilerGetCounterAvailability, then the host object with it
//   without-availability  the host object with no availability image (allowed in 13.0: the
//                         header says it is required only for future chips); does the time
//                         move to a later call, or is it gone?
// Usage: profiler_setup_cost WAY METRIC[,METRIC...]   (lab 4's set: labbook metrics --lab lab4)
// Build and run on the GPU machine (LD_LIBRARY_PATH naming CUPTI's folder):
//   nvcc -O2 -o /tmp/setup_cost tools/probes/profiler_setup_cost.cu -lcupti -lcuda   (or bench/cupti_floor.sh)
//   for i in 1 2 3; do for w in with-availability without-availability; do /tmp/setup_cost $w "$m"; done; done
// Prints one line a call: "<call> <ms>", then the passes the config needs. Exit 1 on a failed call.
#include <cuda_runtime.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "probe_profiler.h"

__global__ void add_one(float* x, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += 1.0f;
}

namespace {

std::chrono::steady_clock::time_point g_mark = std::chrono::steady_clock::now();

void lap(const char* what) {
  const auto now = std::chrono::steady_clock::now();
  std::printf("%-34s %8.2f ms\n", what, std::chrono::duration<double, std::milli>(now - g_mark).count());
  g_mark = now;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string way = argc > 1 ? argv[1] : "";
  if (argc != 3 || (way != "with-availability" && way != "without-availability")) {
    std::fprintf(stderr, "usage: profiler_setup_cost with-availability|without-availability METRIC[,METRIC...]\n");
    return 2;
  }
  std::vector<const char*> names = probe::split_metrics(argv[2]);

  const int n = 1 << 20;
  float* x = nullptr;
  CHECK(cudaMalloc(&x, n * sizeof(float)));
  add_one<<<n / 256, 256>>>(x, n);   // the context, the module and the first launch, untimed
  CHECK(cudaDeviceSynchronize());
  CUcontext ctx = nullptr;
  CHECK(cuCtxGetCurrent(&ctx));
  g_mark = std::chrono::steady_clock::now();

  probe::initialize_profiler();
  lap("cuptiProfilerInitialize");
  const char* chip = probe::chip_name(0);
  lap("cuptiDeviceGetChipName");
  std::vector<std::uint8_t> availability;
  if (way == "with-availability") {
    availability = probe::counter_availability(ctx);
    lap("GetCounterAvailability (size, image)");
  }
  CUpti_Profiler_Host_Object* host = probe::host_object(chip, availability);
  lap("cuptiProfilerHostInitialize");
  std::size_t passes = 0;
  std::vector<std::uint8_t> config = probe::config_image(host, names, passes);
  lap("config image and passes");
  CUpti_RangeProfiler_Object* profiler = probe::enable(ctx);
  lap("cuptiRangeProfilerEnable");
  std::vector<std::uint8_t> counter_data = probe::counter_data(profiler, names, 1);
  lap("GetCounterDataSize");

  // Kernel replay as labbook does it: user replay, one auto range, one launch a pass.
  probe::initialize_counter_data(profiler, counter_data);
  lap("CounterDataImageInitialize");
  probe::set_config(profiler, config, counter_data, 1, CUPTI_UserReplay);
  lap("cuptiRangeProfilerSetConfig");
  for (std::size_t pass = 0; pass < passes; ++pass) {
    probe::start(profiler);
    lap(pass == 0 ? "cuptiRangeProfilerStart (pass 1)" : "cuptiRangeProfilerStart (later pass)");
    add_one<<<n / 256, 256>>>(x, n);
    CHECK(cudaGetLastError());
    lap("launch");
    probe::stop(profiler);
    lap(pass == 0 ? "cuptiRangeProfilerStop (pass 1)" : "cuptiRangeProfilerStop (later pass)");
  }
  probe::decode(profiler);
  lap("cuptiRangeProfilerDecodeData");
  probe::tear_down(profiler, host);
  lap("Disable and deinitialize");
  std::printf("%s: %zu passes, %zu metrics, availability image %zu bytes\n", way.c_str(), passes, names.size(),
              availability.size());
  CHECK(cudaFree(x));
  return 0;
}
