// What CUPTI's SASS metrics API counts when a kernel runs more than once, or beside another
// kernel: the limits `labbook profile --source` is built around (profiler/sass_source.h).
// Each way brackets three launches of one kernel (and with "two", of a second kernel after
// each) differently and prints the instructions executed that each flush returned. Build and
// run on the GPU machine:
//   nvcc -o /tmp/sass_relaunch tools/probes/sass_relaunch.cu -lcupti -lcuda && /tmp/sass_relaunch "end lazy two"
// Each way runs in a fresh process; main() lists the words a way is made of.
// H100, CUPTI 13.0, driver 580.159.04 (2026-11-27):
//   once lazy 491520 0 0; each lazy 491520 0 0; end lazy: sum 1474560 (all three launches);
//   each lazy warm 0 0 0 (a kernel that ran before the enable is never counted);
//   end lazy two: add_one 1474560 and nothing for scale (only the first kernel launched after the
//   enable is counted), the same with eager patching and CUDA_MODULE_LOADING=EAGER;
//   eager patching counts nothing unless CUDA_MODULE_LOADING=EAGER.
#include <cuda.h>
#include <cuda_runtime.h>
#include <cupti_profiler_target.h>
#include <cupti_sass_metrics.h>
#include <cupti_target.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "probe_check.h"

__global__ void add_one(float* x, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += 1.0f;
}

__global__ void scale(float* x, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= 2.0f;
}

static std::map<std::string, std::uint64_t> flushed_by_function(CUcontext ctx) {
  std::map<std::string, std::uint64_t> out;
  CUpti_SassMetricsGetDataProperties_Params properties{CUpti_SassMetricsGetDataProperties_Params_STRUCT_SIZE};
  properties.ctx = ctx;
  CHECK(cuptiSassMetricsGetDataProperties(&properties));
  const std::size_t records = properties.numOfPatchedInstructionRecords, instances = properties.numOfInstances;
  if (records == 0 || instances == 0) return out;
  std::vector<CUpti_SassMetrics_Data> data(records);
  std::vector<CUpti_SassMetrics_InstanceValue> values(records * instances);
  for (std::size_t r = 0; r < records; ++r) {
    data[r] = {};
    data[r].structSize = sizeof(CUpti_SassMetrics_Data);
    data[r].pInstanceValues = &values[r * instances];
  }
  CUpti_SassMetricsFlushData_Params flush{CUpti_SassMetricsFlushData_Params_STRUCT_SIZE};
  flush.ctx = ctx;
  flush.numOfPatchedInstructionRecords = records;
  flush.numOfInstances = instances;
  flush.pMetricsData = data.data();
  CHECK(cuptiSassMetricsFlushData(&flush));
  for (std::size_t r = 0; r < records; ++r)
    for (std::size_t v = 0; v < instances; ++v) out[data[r].functionName ? data[r].functionName : "?"] += values[r * instances + v].value;
  return out;
}

static std::uint64_t flushed_instructions(CUcontext ctx) {
  std::uint64_t sum = 0;
  for (const auto& [function, count] : flushed_by_function(ctx)) sum += count;
  return sum;
}

static void enable(CUcontext ctx, bool lazy) {
  CUpti_SassMetricsEnable_Params p{CUpti_SassMetricsEnable_Params_STRUCT_SIZE};
  p.ctx = ctx;
  p.enableLazyPatching = lazy;
  CHECK(cuptiSassMetricsEnable(&p));
}

static void disable(CUcontext ctx) {
  CUpti_SassMetricsDisable_Params p{CUpti_SassMetricsDisable_Params_STRUCT_SIZE};
  p.ctx = ctx;
  CHECK(cuptiSassMetricsDisable(&p));
}

static void configure(std::uint64_t metric_id) {
  CUpti_SassMetrics_Config config{metric_id, CUPTI_SASS_METRICS_OUTPUT_GRANULARITY_GPU};
  CUpti_SassMetricsSetConfig_Params set{CUpti_SassMetricsSetConfig_Params_STRUCT_SIZE};
  set.numOfMetricConfig = 1;
  set.pConfigs = &config;
  set.deviceIndex = 0;
  CHECK(cuptiSassMetricsSetConfig(&set));
}

static void unconfigure() {
  CUpti_SassMetricsUnsetConfig_Params unset{CUpti_SassMetricsUnsetConfig_Params_STRUCT_SIZE};
  unset.deviceIndex = 0;
  CHECK(cuptiSassMetricsUnsetConfig(&unset));
}

// A way is a list of words: lazy or eager patching; once (one enable for all launches), each
// (enable and disable around each launch) or end (one flush after the three launches); warm
// (one uncounted launch first, so that the module is loaded); two (a second kernel after each
// launch, the end's flush shown per function); reconfig (the device's
// configuration unset and set again around each launch, with "each"); off-first (disable,
// then flush).
int main(int argc, char** argv) {
  const std::string way = argc > 1 ? argv[1] : "once lazy";
  const auto has = [&](const char* word) { return way.find(word) != std::string::npos; };
  CHECK(cuInit(0));
  CUdevice device;
  CHECK(cuDeviceGet(&device, 0));
  CUcontext ctx;
  CHECK(cuDevicePrimaryCtxRetain(&ctx, device));
  CHECK(cuCtxSetCurrent(ctx));
  CUpti_Profiler_Initialize_Params init{CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
  CHECK(cuptiProfilerInitialize(&init));
  CUpti_Device_GetChipName_Params chip{CUpti_Device_GetChipName_Params_STRUCT_SIZE};
  chip.deviceIndex = 0;
  CHECK(cuptiDeviceGetChipName(&chip));
  CUpti_SassMetrics_GetProperties_Params metric{CUpti_SassMetrics_GetProperties_Params_STRUCT_SIZE};
  metric.pChipName = chip.pChipName;
  metric.pMetricName = "smsp__sass_inst_executed";
  CHECK(cuptiSassMetricsGetProperties(&metric));
  const std::uint64_t id = metric.metric.metricId;
  configure(id);

  const int n = 1 << 20;
  float* x = nullptr;
  cudaMalloc(&x, n * sizeof(float));
  if (has("warm")) {
    add_one<<<n / 256, 256>>>(x, n);
    CHECK(cuCtxSynchronize());
  }
  const bool lazy = !has("eager"), each = has("each"), at_end = has("end"), off_first = has("off-first");
  std::printf("%-28s", way.c_str());
  if (!each) enable(ctx, lazy);
  for (int launch = 0; launch < 3; ++launch) {
    if (each && has("reconfig") && launch > 0) configure(id);
    if (each) enable(ctx, lazy);
    add_one<<<n / 256, 256>>>(x, n);
    if (has("two")) scale<<<n / 256, 256>>>(x, n);
    CHECK(cuCtxSynchronize());
    if (each && off_first) disable(ctx);
    if (!at_end) std::printf(" %llu", static_cast<unsigned long long>(flushed_instructions(ctx)));
    if (each && !off_first) disable(ctx);
    if (each && has("reconfig")) unconfigure();
  }
  if (at_end && has("two"))
    for (const auto& [function, count] : flushed_by_function(ctx))
      std::printf(" %s %llu", function.c_str(), static_cast<unsigned long long>(count));
  else if (at_end) std::printf(" sum %llu", static_cast<unsigned long long>(flushed_instructions(ctx)));
  if (!each) disable(ctx);
  std::printf("\n");
  return 0;
}
