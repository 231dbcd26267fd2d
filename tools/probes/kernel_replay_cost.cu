// What labbook's kernel replay costs a launch, part by part (issue 34): K launches of a kernel
// over a 64 MiB array (256 MiB allocated, as lab 4's arrays), each replayed for every pass of
// the metric set as RangeProfiler does it (save the memory; for each pass but the last: put the
// memory back, Start, flush L2, launch, Stop; put it back; the last pass), with CUPTI's set-up
// done before the first launch and not counted. Prints the seconds a launch spent in each part.
//   kernel_replay_cost LAUNCHES CHECKPOINT FLUSH METRIC[,METRIC...] [application]
//   CHECKPOINT  none (no memory saved: the floor of Start and Stop alone) | plain | transfer
//               (CUPTI_CHECKPOINT_OPT_TRANSFER: only blocks that changed are put back)
//   FLUSH       0 | 1 (a kernel writing twice L2's size from a context of its own before each
//               pass, waited for, as labbook's flusher)
//   application  instead: the first pass of application replay (one Start, the launches, one
//                Stop), what each launch costs a run of the program beyond running (CHECKPOINT
//                must be none)
// Build and run on the GPU machine (LD_LIBRARY_PATH naming CUPTI's folder):
//   nvcc -O2 -o /tmp/replay_cost tools/probes/kernel_replay_cost.cu -lcupti -lcheckpoint -lcuda
//   /tmp/replay_cost 20 plain 1 "$(labbook metrics --lab lab4)"
// Exit 1 on a failed call.
#include <cuda.h>
#include <cuda_runtime.h>
#include <cupti.h>
#include <cupti_checkpoint.h>
#include <cupti_profiler_host.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "probe_check.h"

#define PARAMS(T) T{T##_STRUCT_SIZE}

__global__ void scale(float* x, std::size_t n) {
  for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += std::size_t(gridDim.x) * blockDim.x)
    x[i] = 2.0f * x[i] + 1.0f;
}

__global__ void fill(int* x, std::size_t n, int value) {
  for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += std::size_t(gridDim.x) * blockDim.x)
    x[i] = value;
}

using NV::Cupti::Checkpoint::CUpti_Checkpoint;

namespace {

struct Clock {
  double seconds = 0;
  template <typename F>
  void time(F&& f) {
    const auto started = std::chrono::steady_clock::now();
    f();
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  }
};

std::vector<const char*> split(char* list) {
  std::vector<const char*> out;
  for (char* token = std::strtok(list, ","); token; token = std::strtok(nullptr, ",")) out.push_back(token);
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  const bool application = argc == 6 && std::string(argv[5]) == "application";
  if (argc != 5 && !application) {
    std::fprintf(stderr, "usage: kernel_replay_cost LAUNCHES none|plain|transfer 0|1 METRIC[,METRIC...] [application]\n");
    return 2;
  }
  const long launches = std::atol(argv[1]);
  const std::string checkpointing = argv[2];
  const bool flushing = std::string(argv[3]) == "1";
  std::vector<const char*> names = split(argv[4]);

  const std::size_t total = 256u << 20, used = 64u << 20;
  float* memory = nullptr;
  CHECK(cudaMalloc(&memory, total));
  CHECK(cudaMemset(memory, 0, total));
  scale<<<1024, 256>>>(memory, used / sizeof(float));
  CHECK(cudaDeviceSynchronize());
  CUcontext ctx = nullptr;
  CHECK(cuCtxGetCurrent(&ctx));
  CUdevice device = 0;
  CHECK(cuCtxGetDevice(&device));

  // The flusher: a context of its own with a buffer twice the L2.
  CUcontext flush_ctx = nullptr;
  int* flush_buffer = nullptr;
  std::size_t flush_ints = 0;
  if (flushing) {
    int l2 = 0;
    CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0));
    CUctxCreateParams create{};
    CHECK(cuCtxCreate(&flush_ctx, &create, 0, device));
    flush_ints = 2 * static_cast<std::size_t>(l2) / sizeof(int);
    CHECK(cudaMalloc(&flush_buffer, flush_ints * sizeof(int)));
    CHECK(cuCtxPopCurrent(nullptr));
    CHECK(cuCtxSetCurrent(ctx));
  }
  const auto flush = [&] {
    CHECK(cuCtxPushCurrent(flush_ctx));
    fill<<<1024, 256>>>(flush_buffer, flush_ints, 1);
    CHECK(cuCtxSynchronize());
    CHECK(cuCtxPopCurrent(nullptr));
  };

  auto init = PARAMS(CUpti_Profiler_Initialize_Params);
  CHECK(cuptiProfilerInitialize(&init));
  auto chip = PARAMS(CUpti_Device_GetChipName_Params);
  CHECK(cuptiDeviceGetChipName(&chip));
  auto avail = PARAMS(CUpti_Profiler_GetCounterAvailability_Params);
  avail.ctx = ctx;
  CHECK(cuptiProfilerGetCounterAvailability(&avail));
  std::vector<std::uint8_t> availability(avail.counterAvailabilityImageSize);
  avail.pCounterAvailabilityImage = availability.data();
  CHECK(cuptiProfilerGetCounterAvailability(&avail));
  auto host = PARAMS(CUpti_Profiler_Host_Initialize_Params);
  host.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
  host.pChipName = chip.pChipName;
  host.pCounterAvailabilityImage = availability.data();
  CHECK(cuptiProfilerHostInitialize(&host));
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
  auto enable = PARAMS(CUpti_RangeProfiler_Enable_Params);
  enable.ctx = ctx;
  CHECK(cuptiRangeProfilerEnable(&enable));
  auto data_size = PARAMS(CUpti_RangeProfiler_GetCounterDataSize_Params);
  data_size.pRangeProfilerObject = enable.pRangeProfilerObject;
  data_size.pMetricNames = names.data();
  data_size.numMetrics = names.size();
  data_size.maxNumOfRanges = static_cast<std::size_t>(launches);
  data_size.maxNumRangeTreeNodes = static_cast<std::uint32_t>(launches);
  CHECK(cuptiRangeProfilerGetCounterDataSize(&data_size));
  std::vector<std::uint8_t> counter_data(data_size.counterDataSize);
  auto data_init = PARAMS(CUpti_RangeProfiler_CounterDataImage_Initialize_Params);
  data_init.pRangeProfilerObject = enable.pRangeProfilerObject;
  data_init.counterDataSize = counter_data.size();
  data_init.pCounterData = counter_data.data();
  CHECK(cuptiRangeProfilerCounterDataImageInitialize(&data_init));
  auto set = PARAMS(CUpti_RangeProfiler_SetConfig_Params);
  set.pRangeProfilerObject = enable.pRangeProfilerObject;
  set.configSize = config.size();
  set.pConfig = config.data();
  set.counterDataImageSize = counter_data.size();
  set.pCounterDataImage = counter_data.data();
  set.range = CUPTI_AutoRange;
  set.replayMode = application ? CUPTI_ApplicationReplay : CUPTI_UserReplay;
  set.maxRangesPerPass = static_cast<std::size_t>(launches);
  set.numNestingLevels = 1;
  set.minNestingLevel = 1;
  set.targetNestingLevel = 1;
  CHECK(cuptiRangeProfilerSetConfig(&set));
  // CUPTI's first Start, out of the count: it is the same whatever the replay.
  auto start = PARAMS(CUpti_RangeProfiler_Start_Params);
  start.pRangeProfilerObject = enable.pRangeProfilerObject;
  auto stop = PARAMS(CUpti_RangeProfiler_Stop_Params);
  stop.pRangeProfilerObject = enable.pRangeProfilerObject;
  if (!application) {
    CHECK(cuptiRangeProfilerStart(&start));
    CHECK(cuptiRangeProfilerStop(&stop));
  }

  CUpti_Checkpoint checkpoint{};
  checkpoint.structSize = CUpti_Checkpoint_STRUCT_SIZE;
  checkpoint.ctx = ctx;
  checkpoint.allowOverwrite = 1;
  checkpoint.optimizations = checkpointing == "transfer" ? NV::Cupti::Checkpoint::CUPTI_CHECKPOINT_OPT_TRANSFER : 0;
  const bool saving = checkpointing != "none";

  Clock saves, restores, starts, stops, flushes, kernels;
  if (application) {
    CHECK(cuptiRangeProfilerStart(&start));
    const auto whole = std::chrono::steady_clock::now();
    for (long k = 0; k < launches; ++k) {
      if (flushing) flushes.time(flush);
      kernels.time([&] {
        scale<<<1024, 256>>>(memory, used / sizeof(float));
        CHECK(cudaGetLastError());
      });
    }
    CHECK(cudaDeviceSynchronize());
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - whole).count();
    stops.time([&] { CHECK(cuptiRangeProfilerStop(&stop)); });
    auto decode = PARAMS(CUpti_RangeProfiler_DecodeData_Params);
    decode.pRangeProfilerObject = enable.pRangeProfilerObject;
    CHECK(cuptiRangeProfilerDecodeData(&decode));
    std::printf("application, %ld launches, flush %d: %.2f ms a launch (flush %.2f, launch %.2f), then stop %.1f ms, "
                "%zu ranges dropped\n",
                launches, flushing ? 1 : 0, 1e3 * seconds / launches, 1e3 * flushes.seconds / launches,
                1e3 * kernels.seconds / launches, 1e3 * stops.seconds, decode.numOfRangeDropped);
    return 0;
  }
  const auto whole = std::chrono::steady_clock::now();
  for (long k = 0; k < launches; ++k) {
    if (saving) saves.time([&] {
      CHECK(cuCtxSynchronize());
      CHECK(NV::Cupti::Checkpoint::cuptiCheckpointSave(&checkpoint));
    });
    for (std::size_t pass = 0; pass < passes.numOfPasses; ++pass) {
      if (saving && pass > 0) restores.time([&] { CHECK(NV::Cupti::Checkpoint::cuptiCheckpointRestore(&checkpoint)); });
      starts.time([&] { CHECK(cuptiRangeProfilerStart(&start)); });
      if (flushing) flushes.time(flush);
      kernels.time([&] {
        scale<<<1024, 256>>>(memory, used / sizeof(float));
        CHECK(cudaGetLastError());
      });
      stops.time([&] { CHECK(cuptiRangeProfilerStop(&stop)); });
    }
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - whole).count();
  auto decode = PARAMS(CUpti_RangeProfiler_DecodeData_Params);
  decode.pRangeProfilerObject = enable.pRangeProfilerObject;
  CHECK(cuptiRangeProfilerDecodeData(&decode));
  if (saving) CHECK(NV::Cupti::Checkpoint::cuptiCheckpointFree(&checkpoint));
  const double n = static_cast<double>(launches);
  std::printf("%ld launches, %zu passes, checkpoint %s, flush %d: %.1f ms a launch (save %.1f, restore %.1f, "
              "start %.1f, stop %.1f, flush %.1f, launch %.1f), %zu ranges dropped\n",
              launches, passes.numOfPasses, checkpointing.c_str(), flushing ? 1 : 0, 1e3 * seconds / n,
              1e3 * saves.seconds / n, 1e3 * restores.seconds / n, 1e3 * starts.seconds / n, 1e3 * stops.seconds / n,
              1e3 * flushes.seconds / n, 1e3 * kernels.seconds / n, decode.numOfRangeDropped);
  return 0;
}
