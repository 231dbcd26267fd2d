// Where a metrics run's fixed cost goes, call by call (issue 34): the time of each CUPTI call
// from cuptiProfilerInitialize to the first pass's Stop, as labbook's RangeProfiler makes them,
// then a second and a third pass's SetConfig, Start and Stop (steady state). Two ways, one
// per process, since CUPTI's first use in a process is what is priced:
//   with-availability     cuptiProfilerGetCounterAvailability, then the host object with it
//   without-availability  the host object with no availability image (allowed in 13.0: the
//                         header says it is required only for future chips); does the time
//                         move to a later call, or is it gone?
// Usage: profiler_setup_cost WAY METRIC[,METRIC...]   (lab 4's set: labbook metrics --lab lab4)
// Build and run on the GPU machine (LD_LIBRARY_PATH naming CUPTI's folder):
//   nvcc -O2 -o /tmp/setup_cost tools/probes/profiler_setup_cost.cu -lcupti -lcuda
//   for i in 1 2 3; do for w in with-availability without-availability; do /tmp/setup_cost $w "$m"; done; done
// Prints one line a call: "<call> <ms>", then the passes the config needs. Exit 1 on a failed call.
#include <cuda.h>
#include <cuda_runtime.h>
#include <cupti.h>
#include <cupti_profiler_host.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "probe_check.h"

#define PARAMS(T) T{T##_STRUCT_SIZE}

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

std::vector<std::string> split(const std::string& list) {
  std::vector<std::string> out;
  std::size_t at = 0;
  while (at <= list.size()) {
    const std::size_t comma = list.find(',', at);
    out.push_back(list.substr(at, comma == std::string::npos ? std::string::npos : comma - at));
    if (comma == std::string::npos) break;
    at = comma + 1;
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string way = argc > 1 ? argv[1] : "";
  if (argc != 3 || (way != "with-availability" && way != "without-availability")) {
    std::fprintf(stderr, "usage: profiler_setup_cost with-availability|without-availability METRIC[,METRIC...]\n");
    return 2;
  }
  const std::vector<std::string> metrics = split(argv[2]);
  std::vector<const char*> names;
  for (const auto& m : metrics) names.push_back(m.c_str());

  const int n = 1 << 20;
  float* x = nullptr;
  CHECK(cudaMalloc(&x, n * sizeof(float)));
  add_one<<<n / 256, 256>>>(x, n);   // the context, the module and the first launch, untimed
  CHECK(cudaDeviceSynchronize());
  CUcontext ctx = nullptr;
  CHECK(cuCtxGetCurrent(&ctx));
  g_mark = std::chrono::steady_clock::now();

  auto init = PARAMS(CUpti_Profiler_Initialize_Params);
  CHECK(cuptiProfilerInitialize(&init));
  lap("cuptiProfilerInitialize");
  auto chip = PARAMS(CUpti_Device_GetChipName_Params);
  chip.deviceIndex = 0;
  CHECK(cuptiDeviceGetChipName(&chip));
  lap("cuptiDeviceGetChipName");
  std::vector<std::uint8_t> availability;
  if (way == "with-availability") {
    auto avail = PARAMS(CUpti_Profiler_GetCounterAvailability_Params);
    avail.ctx = ctx;
    CHECK(cuptiProfilerGetCounterAvailability(&avail));
    lap("GetCounterAvailability (size)");
    availability.resize(avail.counterAvailabilityImageSize);
    avail.pCounterAvailabilityImage = availability.data();
    CHECK(cuptiProfilerGetCounterAvailability(&avail));
    lap("GetCounterAvailability (image)");
  }
  auto host = PARAMS(CUpti_Profiler_Host_Initialize_Params);
  host.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
  host.pChipName = chip.pChipName;
  host.pCounterAvailabilityImage = availability.empty() ? nullptr : availability.data();
  CHECK(cuptiProfilerHostInitialize(&host));
  lap("cuptiProfilerHostInitialize");
  auto add = PARAMS(CUpti_Profiler_Host_ConfigAddMetrics_Params);
  add.pHostObject = host.pHostObject;
  add.ppMetricNames = names.data();
  add.numMetrics = names.size();
  CHECK(cuptiProfilerHostConfigAddMetrics(&add));
  auto size = PARAMS(CUpti_Profiler_Host_GetConfigImageSize_Params);
  size.pHostObject = host.pHostObject;
  CHECK(cuptiProfilerHostGetConfigImageSize(&size));
  std::vector<std::uint8_t> config(size.configImageSize);
  auto image = PARAMS(CUpti_Profiler_Host_GetConfigImage_Params);
  image.pHostObject = host.pHostObject;
  image.configImageSize = config.size();
  image.pConfigImage = config.data();
  CHECK(cuptiProfilerHostGetConfigImage(&image));
  auto passes = PARAMS(CUpti_Profiler_Host_GetNumOfPasses_Params);
  passes.configImageSize = config.size();
  passes.pConfigImage = config.data();
  CHECK(cuptiProfilerHostGetNumOfPasses(&passes));
  lap("config image and passes");

  auto enable = PARAMS(CUpti_RangeProfiler_Enable_Params);
  enable.ctx = ctx;
  CHECK(cuptiRangeProfilerEnable(&enable));
  lap("cuptiRangeProfilerEnable");
  auto data_size = PARAMS(CUpti_RangeProfiler_GetCounterDataSize_Params);
  data_size.pRangeProfilerObject = enable.pRangeProfilerObject;
  data_size.pMetricNames = names.data();
  data_size.numMetrics = names.size();
  data_size.maxNumOfRanges = 1;
  data_size.maxNumRangeTreeNodes = 1;
  CHECK(cuptiRangeProfilerGetCounterDataSize(&data_size));
  std::vector<std::uint8_t> counter_data(data_size.counterDataSize);
  lap("GetCounterDataSize");

  // Kernel replay as labbook does it: user replay, one auto range, one launch a pass.
  for (std::size_t pass = 0; pass < passes.numOfPasses; ++pass) {
    if (pass == 0) {
      auto data_init = PARAMS(CUpti_RangeProfiler_CounterDataImage_Initialize_Params);
      data_init.pRangeProfilerObject = enable.pRangeProfilerObject;
      data_init.counterDataSize = counter_data.size();
      data_init.pCounterData = counter_data.data();
      CHECK(cuptiRangeProfilerCounterDataImageInitialize(&data_init));
      lap("CounterDataImageInitialize");
      auto set = PARAMS(CUpti_RangeProfiler_SetConfig_Params);
      set.pRangeProfilerObject = enable.pRangeProfilerObject;
      set.configSize = config.size();
      set.pConfig = config.data();
      set.counterDataImageSize = counter_data.size();
      set.pCounterDataImage = counter_data.data();
      set.range = CUPTI_AutoRange;
      set.replayMode = CUPTI_UserReplay;
      set.maxRangesPerPass = 1;
      set.numNestingLevels = 1;
      set.minNestingLevel = 1;
      set.targetNestingLevel = 1;
      CHECK(cuptiRangeProfilerSetConfig(&set));
      lap("cuptiRangeProfilerSetConfig");
    }
    auto start = PARAMS(CUpti_RangeProfiler_Start_Params);
    start.pRangeProfilerObject = enable.pRangeProfilerObject;
    CHECK(cuptiRangeProfilerStart(&start));
    lap(pass == 0 ? "cuptiRangeProfilerStart (pass 1)" : "cuptiRangeProfilerStart (later pass)");
    add_one<<<n / 256, 256>>>(x, n);
    CHECK(cudaGetLastError());
    lap("launch");
    auto stop = PARAMS(CUpti_RangeProfiler_Stop_Params);
    stop.pRangeProfilerObject = enable.pRangeProfilerObject;
    CHECK(cuptiRangeProfilerStop(&stop));
    lap(pass == 0 ? "cuptiRangeProfilerStop (pass 1)" : "cuptiRangeProfilerStop (later pass)");
  }
  auto decode = PARAMS(CUpti_RangeProfiler_DecodeData_Params);
  decode.pRangeProfilerObject = enable.pRangeProfilerObject;
  CHECK(cuptiRangeProfilerDecodeData(&decode));
  lap("cuptiRangeProfilerDecodeData");
  auto disable = PARAMS(CUpti_RangeProfiler_Disable_Params);
  disable.pRangeProfilerObject = enable.pRangeProfilerObject;
  CHECK(cuptiRangeProfilerDisable(&disable));
  auto deinit_host = PARAMS(CUpti_Profiler_Host_Deinitialize_Params);
  deinit_host.pHostObject = host.pHostObject;
  CHECK(cuptiProfilerHostDeinitialize(&deinit_host));
  auto deinit = PARAMS(CUpti_Profiler_DeInitialize_Params);
  CHECK(cuptiProfilerDeInitialize(&deinit));
  lap("Disable and deinitialize");
  std::printf("%s: %zu passes, %zu metrics, availability image %zu bytes\n", way.c_str(), passes.numOfPasses,
              names.size(), availability.size());
  CHECK(cudaFree(x));
  return 0;
}
