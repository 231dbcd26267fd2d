// The range profiler's set-up as labbook's RangeProfiler makes it, a step a function, for the
// probes that price it (profiler_setup_cost.cu times each step, kernel_replay_cost.cu what
// comes after). Each step stops the probe at a failed call (probe_check.h). No timing here.
#pragma once
#include <cuda.h>
#include <cupti.h>
#include <cupti_profiler_host.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "probe_check.h"

#define PARAMS(T) T{T##_STRUCT_SIZE}

namespace probe {

/// METRIC[,METRIC...] split in place (the argument's own storage).
inline std::vector<const char*> split_metrics(char* list) {
  std::vector<const char*> out;
  for (char* token = std::strtok(list, ","); token; token = std::strtok(nullptr, ",")) out.push_back(token);
  return out;
}

inline void initialize_profiler() {
  auto init = PARAMS(CUpti_Profiler_Initialize_Params);
  CHECK(cuptiProfilerInitialize(&init));
}

inline const char* chip_name(std::size_t device) {
  auto chip = PARAMS(CUpti_Device_GetChipName_Params);
  chip.deviceIndex = device;
  CHECK(cuptiDeviceGetChipName(&chip));
  return chip.pChipName;
}

/// Its size, then the image: two calls, as CUPTI asks.
inline std::vector<std::uint8_t> counter_availability(CUcontext ctx) {
  auto avail = PARAMS(CUpti_Profiler_GetCounterAvailability_Params);
  avail.ctx = ctx;
  CHECK(cuptiProfilerGetCounterAvailability(&avail));
  std::vector<std::uint8_t> image(avail.counterAvailabilityImageSize);
  avail.pCounterAvailabilityImage = image.data();
  CHECK(cuptiProfilerGetCounterAvailability(&avail));
  return image;
}

/// The host object, with no availability image when `availability` is empty. CUPTI keeps the
/// image's address and reads it again when it makes the config image: it must outlive the
/// host object (a temporary crashed libnvperf_host; H200, CUDA 13.0).
inline CUpti_Profiler_Host_Object* host_object(const char* chip, const std::vector<std::uint8_t>& availability) {
  auto host = PARAMS(CUpti_Profiler_Host_Initialize_Params);
  host.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
  host.pChipName = chip;
  host.pCounterAvailabilityImage = availability.empty() ? nullptr : availability.data();
  CHECK(cuptiProfilerHostInitialize(&host));
  return host.pHostObject;
}

/// The config image for `names`, and the passes it takes.
inline std::vector<std::uint8_t> config_image(CUpti_Profiler_Host_Object* host, std::vector<const char*>& names,
                                              std::size_t& passes) {
  auto add = PARAMS(CUpti_Profiler_Host_ConfigAddMetrics_Params);
  add.pHostObject = host;
  add.ppMetricNames = names.data();
  add.numMetrics = names.size();
  CHECK(cuptiProfilerHostConfigAddMetrics(&add));
  auto size = PARAMS(CUpti_Profiler_Host_GetConfigImageSize_Params);
  size.pHostObject = host;
  CHECK(cuptiProfilerHostGetConfigImageSize(&size));
  std::vector<std::uint8_t> config(size.configImageSize);
  auto image = PARAMS(CUpti_Profiler_Host_GetConfigImage_Params);
  image.pHostObject = host;
  image.configImageSize = config.size();
  image.pConfigImage = config.data();
  CHECK(cuptiProfilerHostGetConfigImage(&image));
  auto count = PARAMS(CUpti_Profiler_Host_GetNumOfPasses_Params);
  count.configImageSize = config.size();
  count.pConfigImage = config.data();
  CHECK(cuptiProfilerHostGetNumOfPasses(&count));
  passes = count.numOfPasses;
  return config;
}

inline CUpti_RangeProfiler_Object* enable(CUcontext ctx) {
  auto on = PARAMS(CUpti_RangeProfiler_Enable_Params);
  on.ctx = ctx;
  CHECK(cuptiRangeProfilerEnable(&on));
  return on.pRangeProfilerObject;
}

/// A counter data image (not yet initialized) with room for `ranges`.
inline std::vector<std::uint8_t> counter_data(CUpti_RangeProfiler_Object* profiler, std::vector<const char*>& names,
                                              std::size_t ranges) {
  auto size = PARAMS(CUpti_RangeProfiler_GetCounterDataSize_Params);
  size.pRangeProfilerObject = profiler;
  size.pMetricNames = names.data();
  size.numMetrics = names.size();
  size.maxNumOfRanges = ranges;
  size.maxNumRangeTreeNodes = static_cast<std::uint32_t>(ranges);
  CHECK(cuptiRangeProfilerGetCounterDataSize(&size));
  return std::vector<std::uint8_t>(size.counterDataSize);
}

inline void initialize_counter_data(CUpti_RangeProfiler_Object* profiler, std::vector<std::uint8_t>& data) {
  auto init = PARAMS(CUpti_RangeProfiler_CounterDataImage_Initialize_Params);
  init.pRangeProfilerObject = profiler;
  init.counterDataSize = data.size();
  init.pCounterData = data.data();
  CHECK(cuptiRangeProfilerCounterDataImageInitialize(&init));
}

/// One auto range a kernel launch, `ranges` a pass; user replay (labbook's kernel replay) or
/// the first pass of application replay.
inline void set_config(CUpti_RangeProfiler_Object* profiler, std::vector<std::uint8_t>& config,
                       std::vector<std::uint8_t>& data, std::size_t ranges, CUpti_ProfilerReplayMode replay) {
  auto set = PARAMS(CUpti_RangeProfiler_SetConfig_Params);
  set.pRangeProfilerObject = profiler;
  set.configSize = config.size();
  set.pConfig = config.data();
  set.counterDataImageSize = data.size();
  set.pCounterDataImage = data.data();
  set.range = CUPTI_AutoRange;
  set.replayMode = replay;
  set.maxRangesPerPass = ranges;
  set.numNestingLevels = 1;
  set.minNestingLevel = 1;
  set.targetNestingLevel = 1;
  CHECK(cuptiRangeProfilerSetConfig(&set));
}

inline void start(CUpti_RangeProfiler_Object* profiler) {
  auto go = PARAMS(CUpti_RangeProfiler_Start_Params);
  go.pRangeProfilerObject = profiler;
  CHECK(cuptiRangeProfilerStart(&go));
}

inline void stop(CUpti_RangeProfiler_Object* profiler) {
  auto halt = PARAMS(CUpti_RangeProfiler_Stop_Params);
  halt.pRangeProfilerObject = profiler;
  CHECK(cuptiRangeProfilerStop(&halt));
}

/// Decodes what the passes collected; returns the ranges dropped.
inline std::size_t decode(CUpti_RangeProfiler_Object* profiler) {
  auto data = PARAMS(CUpti_RangeProfiler_DecodeData_Params);
  data.pRangeProfilerObject = profiler;
  CHECK(cuptiRangeProfilerDecodeData(&data));
  return data.numOfRangeDropped;
}

/// Ranges the decoded image holds.
inline std::size_t ranges_in(const std::vector<std::uint8_t>& data) {
  auto info = PARAMS(CUpti_RangeProfiler_GetCounterDataInfo_Params);
  info.pCounterDataImage = data.data();
  info.counterDataImageSize = data.size();
  CHECK(cuptiRangeProfilerGetCounterDataInfo(&info));
  return info.numTotalRanges;
}

/// `metric`'s value in range `range` of the decoded image.
inline double value_of(CUpti_Profiler_Host_Object* host, const std::vector<std::uint8_t>& data, std::size_t range,
                       const char* metric) {
  double value = 0;
  auto evaluate = PARAMS(CUpti_Profiler_Host_EvaluateToGpuValues_Params);
  evaluate.pHostObject = host;
  evaluate.pCounterDataImage = data.data();
  evaluate.counterDataImageSize = data.size();
  evaluate.rangeIndex = range;
  evaluate.ppMetricNames = &metric;
  evaluate.numMetrics = 1;
  evaluate.pMetricValues = &value;
  CHECK(cuptiProfilerHostEvaluateToGpuValues(&evaluate));
  return value;
}

inline void tear_down(CUpti_RangeProfiler_Object* profiler, CUpti_Profiler_Host_Object* host) {
  auto off = PARAMS(CUpti_RangeProfiler_Disable_Params);
  off.pRangeProfilerObject = profiler;
  CHECK(cuptiRangeProfilerDisable(&off));
  auto host_off = PARAMS(CUpti_Profiler_Host_Deinitialize_Params);
  host_off.pHostObject = host;
  CHECK(cuptiProfilerHostDeinitialize(&host_off));
  auto deinit = PARAMS(CUpti_Profiler_DeInitialize_Params);
  CHECK(cuptiProfilerDeInitialize(&deinit));
}

}  // namespace probe
