// A study program for tools/probe-l2-flush-state.sh --apis: the 1024² naive transpose of
// l2_flush_state.cu (alloc-first copies copy-kernel read-back), each time just after a
// write,discard flush of L2 from a context of its own (as labbook's flusher does), profiled
// from inside the program by one of CUPTI 13.0's two profiling APIs. Does the extra DRAM
// traffic that the transpose shows under labbook come with the Range Profiler API alone, or
// with CUPTI's profiling session whichever API opens it?
//   profiler_apis api=range|legacy|none [repeat=N]
//   range   cupti_range_profiler.h (what labbook uses): user replay, one range per kernel
//   legacy  cupti_profiler_target.h, deprecated in 13.0 (cuptiProfilerBeginSession...), with
//           its images made by NVPW as before the host API: user replay, auto range
//   none    no profiling: for ncu --cache-control none, the reference
// Prints one line per repetition (default 3): "API: read=B written=B duration=NS".
// Exit 0, 1 with the failing call on stderr. Not a lab and not a test: it checks nothing.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <cuda.h>
#include <cuda_runtime.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>
#include <nvperf_cuda_host.h>
#include <nvperf_host.h>

#include "flush_probe_kernels.cuh"

const char* const kMetrics[] = {"dram__bytes_read.sum", "dram__bytes_write.sum", "gpu__time_duration.sum"};
constexpr size_t kMetricCount = 3;

namespace {

[[noreturn]] void fail(const char* call, long code) {
  std::fprintf(stderr, "profiler_apis: %s failed (%ld)\n", call, code);
  std::exit(1);
}
void check(cudaError_t e, const char* call) { if (e != cudaSuccess) fail(call, e); }
void check(CUresult e, const char* call) { if (e != CUDA_SUCCESS) fail(call, e); }
void check(CUptiResult e, const char* call) { if (e != CUPTI_SUCCESS) fail(call, e); }
void check(NVPA_Status e, const char* call) { if (e != NVPA_STATUS_SUCCESS) fail(call, e); }

template <class T>
T params(size_t size) {   // every CUPTI and NVPW parameter struct: zeroed, its size set
  T p;
  std::memset(&p, 0, sizeof p);
  p.structSize = size;
  return p;
}
#define PARAMS(T) params<T>(T##_STRUCT_SIZE)

/// The transpose's data, and L2 flushed from a context of its own right before each launch.
struct Transpose {
  float *in = nullptr, *out = nullptr;
  CUcontext program = nullptr, flusher = nullptr;
  char* flush = nullptr;
  size_t flush_bytes = 0;

  Transpose() {
    const size_t count = size_t{kN} * kN, bytes = count * sizeof(float);
    check(cudaMalloc(&in, bytes), "cudaMalloc");
    check(cudaMalloc(&out, bytes), "cudaMalloc");
    std::vector<float> host(count, 1.f);
    check(cudaMemcpy(in, host.data(), bytes, cudaMemcpyHostToDevice), "cudaMemcpy");
    check(cudaMemset(out, 0, bytes), "cudaMemset");
    copy_rows<<<dim3(kN / kTile, kN / kTile), dim3(kTile, kRows)>>>(out, in, kN);
    check(cudaMemcpy(host.data(), out, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy");
    check(cuCtxGetCurrent(&program), "cuCtxGetCurrent");
    int l2 = 0;
    check(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0), "L2 size");
    flush_bytes = 2 * size_t(l2);
    CUdevice dev = 0;
    CUctxCreateParams create{};
    check(cuDeviceGet(&dev, 0), "cuDeviceGet");
    check(cuCtxCreate(&flusher, &create, 0, dev), "cuCtxCreate");
    check(cudaMalloc(&flush, flush_bytes), "cudaMalloc (flush context)");
    check(cuCtxSetCurrent(program), "cuCtxSetCurrent");
  }
  void flush_then_launch() const {
    check(cuCtxSetCurrent(flusher), "cuCtxSetCurrent");
    flush_write<<<kBlocks, kThreads>>>(reinterpret_cast<uint4*>(flush), flush_bytes / 16);
    flush_discard<<<kBlocks, kThreads>>>(flush, flush_bytes / 128);
    check(cudaDeviceSynchronize(), "flush");
    check(cuCtxSetCurrent(program), "cuCtxSetCurrent");
    transpose_naive<<<dim3(kN / kTile, kN / kTile), dim3(kTile, kRows)>>>(out, in, kN);
    check(cudaDeviceSynchronize(), "transpose_naive");
  }
};

void print(const char* api, const double* v) {
  std::printf("%s: read=%.0f written=%.0f duration=%.0f\n", api, v[0], v[1], v[2]);
}

std::vector<uint8_t> counter_availability(CUcontext ctx) {
  auto a = PARAMS(CUpti_Profiler_GetCounterAvailability_Params);
  a.ctx = ctx;
  check(cuptiProfilerGetCounterAvailability(&a), "cuptiProfilerGetCounterAvailability");
  std::vector<uint8_t> image(a.counterAvailabilityImageSize);
  a.pCounterAvailabilityImage = image.data();
  check(cuptiProfilerGetCounterAvailability(&a), "cuptiProfilerGetCounterAvailability");
  return image;
}

// The Range Profiler API, as labbook's profiler/range_profiler.cpp uses it in user replay.
void profile_with_range_api(const Transpose& t, const char* chip, const std::vector<uint8_t>& availability, int repeat) {
  auto init = PARAMS(CUpti_Profiler_Host_Initialize_Params);
  init.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
  init.pChipName = chip;
  init.pCounterAvailabilityImage = availability.data();
  check(cuptiProfilerHostInitialize(&init), "cuptiProfilerHostInitialize");
  auto add = PARAMS(CUpti_Profiler_Host_ConfigAddMetrics_Params);
  add.pHostObject = init.pHostObject;
  add.ppMetricNames = const_cast<const char**>(kMetrics);
  add.numMetrics = kMetricCount;
  check(cuptiProfilerHostConfigAddMetrics(&add), "cuptiProfilerHostConfigAddMetrics");
  auto size = PARAMS(CUpti_Profiler_Host_GetConfigImageSize_Params);
  size.pHostObject = init.pHostObject;
  check(cuptiProfilerHostGetConfigImageSize(&size), "cuptiProfilerHostGetConfigImageSize");
  std::vector<uint8_t> config(size.configImageSize);
  auto image = PARAMS(CUpti_Profiler_Host_GetConfigImage_Params);
  image.pHostObject = init.pHostObject;
  image.configImageSize = config.size();
  image.pConfigImage = config.data();
  check(cuptiProfilerHostGetConfigImage(&image), "cuptiProfilerHostGetConfigImage");

  auto enable = PARAMS(CUpti_RangeProfiler_Enable_Params);
  enable.ctx = t.program;
  check(cuptiRangeProfilerEnable(&enable), "cuptiRangeProfilerEnable");
  auto data_size = PARAMS(CUpti_RangeProfiler_GetCounterDataSize_Params);
  data_size.pRangeProfilerObject = enable.pRangeProfilerObject;
  data_size.pMetricNames = const_cast<const char**>(kMetrics);
  data_size.numMetrics = kMetricCount;
  data_size.maxNumOfRanges = 1;
  data_size.maxNumRangeTreeNodes = 1;
  check(cuptiRangeProfilerGetCounterDataSize(&data_size), "cuptiRangeProfilerGetCounterDataSize");
  std::vector<uint8_t> data(data_size.counterDataSize);
  for (int r = 0; r < repeat; ++r) {
    auto data_init = PARAMS(CUpti_RangeProfiler_CounterDataImage_Initialize_Params);
    data_init.pRangeProfilerObject = enable.pRangeProfilerObject;
    data_init.counterDataSize = data.size();
    data_init.pCounterData = data.data();
    check(cuptiRangeProfilerCounterDataImageInitialize(&data_init), "cuptiRangeProfilerCounterDataImageInitialize");
    auto set = PARAMS(CUpti_RangeProfiler_SetConfig_Params);
    set.pRangeProfilerObject = enable.pRangeProfilerObject;
    set.configSize = config.size();
    set.pConfig = config.data();
    set.counterDataImageSize = data.size();
    set.pCounterDataImage = data.data();
    set.range = CUPTI_AutoRange;
    set.replayMode = CUPTI_UserReplay;
    set.maxRangesPerPass = 1;
    set.numNestingLevels = 1;
    set.minNestingLevel = 1;
    set.targetNestingLevel = 1;
    check(cuptiRangeProfilerSetConfig(&set), "cuptiRangeProfilerSetConfig");
    for (bool all_submitted = false; !all_submitted;) {
      auto start = PARAMS(CUpti_RangeProfiler_Start_Params);
      start.pRangeProfilerObject = enable.pRangeProfilerObject;
      check(cuptiRangeProfilerStart(&start), "cuptiRangeProfilerStart");
      t.flush_then_launch();
      auto stop = PARAMS(CUpti_RangeProfiler_Stop_Params);
      stop.pRangeProfilerObject = enable.pRangeProfilerObject;
      check(cuptiRangeProfilerStop(&stop), "cuptiRangeProfilerStop");
      all_submitted = stop.isAllPassSubmitted;
    }
    auto decode = PARAMS(CUpti_RangeProfiler_DecodeData_Params);
    decode.pRangeProfilerObject = enable.pRangeProfilerObject;
    check(cuptiRangeProfilerDecodeData(&decode), "cuptiRangeProfilerDecodeData");
    double values[kMetricCount] = {};
    auto eval = PARAMS(CUpti_Profiler_Host_EvaluateToGpuValues_Params);
    eval.pHostObject = init.pHostObject;
    eval.pCounterDataImage = data.data();
    eval.counterDataImageSize = data.size();
    eval.rangeIndex = 0;
    eval.ppMetricNames = const_cast<const char**>(kMetrics);
    eval.numMetrics = kMetricCount;
    eval.pMetricValues = values;
    check(cuptiProfilerHostEvaluateToGpuValues(&eval), "cuptiProfilerHostEvaluateToGpuValues");
    print("range", values);
  }
  auto disable = PARAMS(CUpti_RangeProfiler_Disable_Params);
  disable.pRangeProfilerObject = enable.pRangeProfilerObject;
  check(cuptiRangeProfilerDisable(&disable), "cuptiRangeProfilerDisable");
}

// The deprecated Profiler API, its config and counter-data prefix made by NVPW's metrics
// evaluator, raw metrics config and counter-data builder.
void profile_with_legacy_api(const Transpose& t, const char* chip, const std::vector<uint8_t>& availability, int repeat) {
  auto host = PARAMS(NVPW_InitializeHost_Params);
  check(NVPW_InitializeHost(&host), "NVPW_InitializeHost");
  auto scratch_size = PARAMS(NVPW_CUDA_MetricsEvaluator_CalculateScratchBufferSize_Params);
  scratch_size.pChipName = chip;
  check(NVPW_CUDA_MetricsEvaluator_CalculateScratchBufferSize(&scratch_size), "NVPW_CUDA_MetricsEvaluator_CalculateScratchBufferSize");
  std::vector<uint8_t> evaluator_scratch(scratch_size.scratchBufferSize);
  auto evaluator = PARAMS(NVPW_CUDA_MetricsEvaluator_Initialize_Params);
  evaluator.pScratchBuffer = evaluator_scratch.data();
  evaluator.scratchBufferSize = evaluator_scratch.size();
  evaluator.pChipName = chip;
  check(NVPW_CUDA_MetricsEvaluator_Initialize(&evaluator), "NVPW_CUDA_MetricsEvaluator_Initialize");

  std::vector<NVPW_MetricEvalRequest> requests(kMetricCount);
  for (size_t m = 0; m < kMetricCount; ++m) {
    auto convert = PARAMS(NVPW_MetricsEvaluator_ConvertMetricNameToMetricEvalRequest_Params);
    convert.pMetricsEvaluator = evaluator.pMetricsEvaluator;
    convert.pMetricName = kMetrics[m];
    convert.pMetricEvalRequest = &requests[m];
    convert.metricEvalRequestStructSize = NVPW_MetricEvalRequest_STRUCT_SIZE;
    check(NVPW_MetricsEvaluator_ConvertMetricNameToMetricEvalRequest(&convert), "NVPW_MetricsEvaluator_ConvertMetricNameToMetricEvalRequest");
  }
  auto deps = PARAMS(NVPW_MetricsEvaluator_GetMetricRawDependencies_Params);
  deps.pMetricsEvaluator = evaluator.pMetricsEvaluator;
  deps.pMetricEvalRequests = requests.data();
  deps.numMetricEvalRequests = requests.size();
  deps.metricEvalRequestStructSize = NVPW_MetricEvalRequest_STRUCT_SIZE;
  deps.metricEvalRequestStrideSize = sizeof(NVPW_MetricEvalRequest);
  check(NVPW_MetricsEvaluator_GetMetricRawDependencies(&deps), "NVPW_MetricsEvaluator_GetMetricRawDependencies");
  std::vector<const char*> raw_names(deps.numRawDependencies);
  deps.ppRawDependencies = raw_names.data();
  check(NVPW_MetricsEvaluator_GetMetricRawDependencies(&deps), "NVPW_MetricsEvaluator_GetMetricRawDependencies");
  std::vector<NVPA_RawMetricRequest> raw;
  for (const char* name : raw_names) {
    NVPA_RawMetricRequest request{};
    request.structSize = NVPA_RAW_METRIC_REQUEST_STRUCT_SIZE;
    request.pMetricName = name;
    request.isolated = true;
    request.keepInstances = true;
    raw.push_back(request);
  }

  auto create = PARAMS(NVPW_CUDA_RawMetricsConfig_Create_V2_Params);
  create.activityKind = NVPA_ACTIVITY_KIND_PROFILER;
  create.pChipName = chip;
  check(NVPW_CUDA_RawMetricsConfig_Create_V2(&create), "NVPW_CUDA_RawMetricsConfig_Create_V2");
  auto avail = PARAMS(NVPW_RawMetricsConfig_SetCounterAvailability_Params);
  avail.pRawMetricsConfig = create.pRawMetricsConfig;
  avail.pCounterAvailabilityImage = availability.data();
  check(NVPW_RawMetricsConfig_SetCounterAvailability(&avail), "NVPW_RawMetricsConfig_SetCounterAvailability");
  auto begin_group = PARAMS(NVPW_RawMetricsConfig_BeginPassGroup_Params);
  begin_group.pRawMetricsConfig = create.pRawMetricsConfig;
  begin_group.maxPassCount = 16;   // as many as the metrics need
  check(NVPW_RawMetricsConfig_BeginPassGroup(&begin_group), "NVPW_RawMetricsConfig_BeginPassGroup");
  auto add = PARAMS(NVPW_RawMetricsConfig_AddMetrics_Params);
  add.pRawMetricsConfig = create.pRawMetricsConfig;
  add.pRawMetricRequests = raw.data();
  add.numMetricRequests = raw.size();
  check(NVPW_RawMetricsConfig_AddMetrics(&add), "NVPW_RawMetricsConfig_AddMetrics");
  auto end_group = PARAMS(NVPW_RawMetricsConfig_EndPassGroup_Params);
  end_group.pRawMetricsConfig = create.pRawMetricsConfig;
  check(NVPW_RawMetricsConfig_EndPassGroup(&end_group), "NVPW_RawMetricsConfig_EndPassGroup");
  auto generate = PARAMS(NVPW_RawMetricsConfig_GenerateConfigImage_Params);
  generate.pRawMetricsConfig = create.pRawMetricsConfig;
  check(NVPW_RawMetricsConfig_GenerateConfigImage(&generate), "NVPW_RawMetricsConfig_GenerateConfigImage");
  auto get_config = PARAMS(NVPW_RawMetricsConfig_GetConfigImage_Params);
  get_config.pRawMetricsConfig = create.pRawMetricsConfig;
  check(NVPW_RawMetricsConfig_GetConfigImage(&get_config), "NVPW_RawMetricsConfig_GetConfigImage");
  std::vector<uint8_t> config(get_config.bytesCopied);
  get_config.bytesAllocated = config.size();
  get_config.pBuffer = config.data();
  check(NVPW_RawMetricsConfig_GetConfigImage(&get_config), "NVPW_RawMetricsConfig_GetConfigImage");

  auto builder = PARAMS(NVPW_CUDA_CounterDataBuilder_Create_Params);
  builder.pChipName = chip;
  check(NVPW_CUDA_CounterDataBuilder_Create(&builder), "NVPW_CUDA_CounterDataBuilder_Create");
  auto add_data = PARAMS(NVPW_CounterDataBuilder_AddMetrics_Params);
  add_data.pCounterDataBuilder = builder.pCounterDataBuilder;
  add_data.pRawMetricRequests = raw.data();
  add_data.numMetricRequests = raw.size();
  check(NVPW_CounterDataBuilder_AddMetrics(&add_data), "NVPW_CounterDataBuilder_AddMetrics");
  auto get_prefix = PARAMS(NVPW_CounterDataBuilder_GetCounterDataPrefix_Params);
  get_prefix.pCounterDataBuilder = builder.pCounterDataBuilder;
  check(NVPW_CounterDataBuilder_GetCounterDataPrefix(&get_prefix), "NVPW_CounterDataBuilder_GetCounterDataPrefix");
  std::vector<uint8_t> prefix(get_prefix.bytesCopied);
  get_prefix.bytesAllocated = prefix.size();
  get_prefix.pBuffer = prefix.data();
  check(NVPW_CounterDataBuilder_GetCounterDataPrefix(&get_prefix), "NVPW_CounterDataBuilder_GetCounterDataPrefix");

  auto options = PARAMS(CUpti_Profiler_CounterDataImageOptions);
  options.pCounterDataPrefix = prefix.data();
  options.counterDataPrefixSize = prefix.size();
  options.maxNumRanges = 1;
  options.maxNumRangeTreeNodes = 1;
  options.maxRangeNameLength = 64;
  auto image_size = PARAMS(CUpti_Profiler_CounterDataImage_CalculateSize_Params);
  image_size.sizeofCounterDataImageOptions = CUpti_Profiler_CounterDataImageOptions_STRUCT_SIZE;
  image_size.pOptions = &options;
  check(cuptiProfilerCounterDataImageCalculateSize(&image_size), "cuptiProfilerCounterDataImageCalculateSize");
  std::vector<uint8_t> data(image_size.counterDataImageSize);

  for (int r = 0; r < repeat; ++r) {
    auto data_init = PARAMS(CUpti_Profiler_CounterDataImage_Initialize_Params);
    data_init.sizeofCounterDataImageOptions = CUpti_Profiler_CounterDataImageOptions_STRUCT_SIZE;
    data_init.pOptions = &options;
    data_init.counterDataImageSize = data.size();
    data_init.pCounterDataImage = data.data();
    check(cuptiProfilerCounterDataImageInitialize(&data_init), "cuptiProfilerCounterDataImageInitialize");
    auto scratch = PARAMS(CUpti_Profiler_CounterDataImage_CalculateScratchBufferSize_Params);
    scratch.counterDataImageSize = data.size();
    scratch.pCounterDataImage = data.data();
    check(cuptiProfilerCounterDataImageCalculateScratchBufferSize(&scratch), "cuptiProfilerCounterDataImageCalculateScratchBufferSize");
    std::vector<uint8_t> scratch_buffer(scratch.counterDataScratchBufferSize);
    auto scratch_init = PARAMS(CUpti_Profiler_CounterDataImage_InitializeScratchBuffer_Params);
    scratch_init.counterDataImageSize = data.size();
    scratch_init.pCounterDataImage = data.data();
    scratch_init.counterDataScratchBufferSize = scratch_buffer.size();
    scratch_init.pCounterDataScratchBuffer = scratch_buffer.data();
    check(cuptiProfilerCounterDataImageInitializeScratchBuffer(&scratch_init), "cuptiProfilerCounterDataImageInitializeScratchBuffer");

    auto session = PARAMS(CUpti_Profiler_BeginSession_Params);
    session.ctx = t.program;
    session.counterDataImageSize = data.size();
    session.pCounterDataImage = data.data();
    session.counterDataScratchBufferSize = scratch_buffer.size();
    session.pCounterDataScratchBuffer = scratch_buffer.data();
    session.range = CUPTI_AutoRange;
    session.replayMode = CUPTI_UserReplay;
    session.maxRangesPerPass = 1;
    session.maxLaunchesPerPass = 1;
    check(cuptiProfilerBeginSession(&session), "cuptiProfilerBeginSession");
    auto set = PARAMS(CUpti_Profiler_SetConfig_Params);
    set.ctx = t.program;
    set.pConfig = config.data();
    set.configSize = config.size();
    set.minNestingLevel = 1;
    set.numNestingLevels = 1;
    set.targetNestingLevel = 1;
    check(cuptiProfilerSetConfig(&set), "cuptiProfilerSetConfig");
    for (bool all_submitted = false; !all_submitted;) {
      auto begin = PARAMS(CUpti_Profiler_BeginPass_Params);
      begin.ctx = t.program;
      check(cuptiProfilerBeginPass(&begin), "cuptiProfilerBeginPass");
      auto on = PARAMS(CUpti_Profiler_EnableProfiling_Params);
      on.ctx = t.program;
      check(cuptiProfilerEnableProfiling(&on), "cuptiProfilerEnableProfiling");
      t.flush_then_launch();
      auto off = PARAMS(CUpti_Profiler_DisableProfiling_Params);
      off.ctx = t.program;
      check(cuptiProfilerDisableProfiling(&off), "cuptiProfilerDisableProfiling");
      auto end = PARAMS(CUpti_Profiler_EndPass_Params);
      end.ctx = t.program;
      check(cuptiProfilerEndPass(&end), "cuptiProfilerEndPass");
      all_submitted = end.allPassesSubmitted;
    }
    auto flush = PARAMS(CUpti_Profiler_FlushCounterData_Params);
    flush.ctx = t.program;
    check(cuptiProfilerFlushCounterData(&flush), "cuptiProfilerFlushCounterData");
    auto unset = PARAMS(CUpti_Profiler_UnsetConfig_Params);
    unset.ctx = t.program;
    check(cuptiProfilerUnsetConfig(&unset), "cuptiProfilerUnsetConfig");
    auto end_session = PARAMS(CUpti_Profiler_EndSession_Params);
    end_session.ctx = t.program;
    check(cuptiProfilerEndSession(&end_session), "cuptiProfilerEndSession");

    auto attributes = PARAMS(NVPW_MetricsEvaluator_SetDeviceAttributes_Params);
    attributes.pMetricsEvaluator = evaluator.pMetricsEvaluator;
    attributes.pCounterDataImage = data.data();
    attributes.counterDataImageSize = data.size();
    check(NVPW_MetricsEvaluator_SetDeviceAttributes(&attributes), "NVPW_MetricsEvaluator_SetDeviceAttributes");
    double values[kMetricCount] = {};
    auto eval = PARAMS(NVPW_MetricsEvaluator_EvaluateToGpuValues_Params);
    eval.pMetricsEvaluator = evaluator.pMetricsEvaluator;
    eval.pMetricEvalRequests = requests.data();
    eval.numMetricEvalRequests = requests.size();
    eval.metricEvalRequestStructSize = NVPW_MetricEvalRequest_STRUCT_SIZE;
    eval.metricEvalRequestStrideSize = sizeof(NVPW_MetricEvalRequest);
    eval.pCounterDataImage = data.data();
    eval.counterDataImageSize = data.size();
    eval.rangeIndex = 0;
    eval.isolated = true;
    eval.pMetricValues = values;
    check(NVPW_MetricsEvaluator_EvaluateToGpuValues(&eval), "NVPW_MetricsEvaluator_EvaluateToGpuValues");
    print("legacy", values);
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::string api;
  int repeat = 3;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a.rfind("api=", 0) == 0) api = a.substr(4);
    else if (a.rfind("repeat=", 0) == 0) repeat = std::atoi(a.c_str() + 7);
    else {
      std::fprintf(stderr, "profiler_apis: unknown argument '%s'\n", a.c_str());
      return 2;
    }
  }
  if ((api != "range" && api != "legacy" && api != "none") || repeat < 1) {
    std::fprintf(stderr, "usage: profiler_apis api=range|legacy|none [repeat=N]\n");
    return 2;
  }
  check(cudaFree(nullptr), "cudaFree");   // the program's primary context
  if (api == "none") {
    const Transpose t;
    for (int r = 0; r < repeat; ++r) t.flush_then_launch();
    return 0;
  }
  // CUPTI is set up before the data is made: its set-up writes through L2.
  auto initialize = PARAMS(CUpti_Profiler_Initialize_Params);
  check(cuptiProfilerInitialize(&initialize), "cuptiProfilerInitialize");
  CUcontext program = nullptr;
  check(cuCtxGetCurrent(&program), "cuCtxGetCurrent");
  const std::vector<uint8_t> availability = counter_availability(program);
  auto chip = PARAMS(CUpti_Device_GetChipName_Params);
  chip.deviceIndex = 0;
  check(cuptiDeviceGetChipName(&chip), "cuptiDeviceGetChipName");
  const Transpose t;
  if (api == "range") profile_with_range_api(t, chip.pChipName, availability, repeat);
  else profile_with_legacy_api(t, chip.pChipName, availability, repeat);
  return 0;
}
