// Lists the SASS metrics CUPTI offers on this GPU (name and description), one per line:
// the names `labbook profile --source` may ask for (profiler/sass_source.cpp,
// report/analysis/source_lines.cpp). Build and run on the GPU machine:
//   nvcc -o /tmp/sass_metric_names tools/probes/sass_metric_names.cu -lcupti -lcuda && /tmp/sass_metric_names
#include <cuda.h>
#include <cupti_profiler_target.h>
#include <cupti_sass_metrics.h>
#include <cupti_target.h>

#include <cstdio>
#include <vector>

#define CHECK(call)                                                        \
  do {                                                                     \
    if (auto status = (call); status != 0) {                               \
      std::fprintf(stderr, "%s failed: %d\n", #call, static_cast<int>(status)); \
      return 1;                                                            \
    }                                                                      \
  } while (0)

int main() {
  CHECK(cuInit(0));
  CUdevice device;
  CHECK(cuDeviceGet(&device, 0));
  CUcontext ctx;
  CHECK(cuDevicePrimaryCtxRetain(&ctx, device));
  CUpti_Profiler_Initialize_Params init{CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
  CHECK(cuptiProfilerInitialize(&init));
  CUpti_Device_GetChipName_Params chip{CUpti_Device_GetChipName_Params_STRUCT_SIZE};
  chip.deviceIndex = 0;
  CHECK(cuptiDeviceGetChipName(&chip));
  CUpti_SassMetrics_GetNumOfMetrics_Params count{CUpti_SassMetrics_GetNumOfMetrics_Params_STRUCT_SIZE};
  count.pChipName = chip.pChipName;
  CHECK(cuptiSassMetricsGetNumOfMetrics(&count));
  std::vector<CUpti_SassMetrics_MetricDetails> metrics(count.numOfMetrics);
  CUpti_SassMetrics_GetMetrics_Params list{CUpti_SassMetrics_GetMetrics_Params_STRUCT_SIZE};
  list.pChipName = chip.pChipName;
  list.numOfMetrics = metrics.size();
  list.pMetricsList = metrics.data();
  CHECK(cuptiSassMetricsGetMetrics(&list));
  std::printf("%s: %zu SASS metrics\n", chip.pChipName, metrics.size());
  for (const auto& m : metrics)
    std::printf("%s\t%s\n", m.pMetricName ? m.pMetricName : "?", m.pMetricDescription ? m.pMetricDescription : "");
  return 0;
}
