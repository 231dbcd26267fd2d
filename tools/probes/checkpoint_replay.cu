// Can labbook replay a kernel's counter passes inside one run, every pass starting as the
// first did (memory restored, L2 flushed), as ncu's kernel replay does? CUPTI's own kernel
// replay restores memory through L2, so its later passes start warm (docs/metrics.md). This
// probe tries CUPTI's user replay with CUPTI's checkpoint API (cupti_checkpoint.h) restoring
// device memory before each later pass, and L2 flushed from a context of its own, as labbook's
// flusher does. The kernel, a[i] = 2 a[i] + b[(i * 33) mod n] over 2^20 floats, is not
// idempotent, so a missed restore shows in the result.
//   checkpoint_replay none|user|callback|kernel
//   none      three launches, unprofiled: the reference for ncu --metrics ... checkpoint_replay none
//   user      the program replays each launch itself: save, then per pass restore, flush, launch
//   callback  the program launches three times; a driver callback on cuLaunchKernel launches
//             the earlier passes itself at API entry and lets the program's launch be the last
//   kernel    CUPTI's kernel replay (later passes warm), for comparison
// Prints each launch's metrics, the time spent in save, restore and the launch call, resident
// memory (VmRSS) after each set-up step, and whether the result equals three launches' worth.
// Build and run on the GPU machine:
//   nvcc -O2 -o /tmp/cr tools/probes/checkpoint_replay.cu -I$CUDA/extras/CUPTI/include -lcupti -lcheckpoint -lcuda
// Not a lab and not a test: it checks nothing but its own result.
// H200, CUPTI 13.0, driver 580.159.04 (2026-11-28), 2 passes, per launch:
//   user and callback: L2 hit rate 74.9-75.9 %, DRAM read 8.39 MB, written 0-256 B, 9.4-10.0 us;
//     save 0.8-0.9 ms, restore 0.1 ms; result right after three launches
//   kernel (CUPTI's): hit rate 94.8-96.1 %, DRAM read 7-14 KB, written 3.1-3.3 MB (warm passes)
//   ncu (kernel replay, default): 74.2-74.6 %, 8.39 MB, 0 B, 9.8-10.1 us
//   resident memory: program context 112 MB, + flusher context 211 MB, + cuptiProfilerInitialize
//   324 MB, + host initialize 374 MB, after the first profiled launch 383 MB.
#include <cuda.h>
#include <cuda_runtime.h>
#include <cupti.h>
#include <cupti_checkpoint.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "flush_probe_kernels.cuh"

using NV::Cupti::Checkpoint::CUpti_Checkpoint;
using NV::Cupti::Checkpoint::cuptiCheckpointRestore;
using NV::Cupti::Checkpoint::cuptiCheckpointSave;

namespace {

const char* kMetrics[] = {"lts__t_sector_hit_rate.pct", "dram__bytes_read.sum", "dram__bytes_write.sum",
                          "gpu__time_duration.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
                          "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"};
constexpr size_t kMetricCount = sizeof kMetrics / sizeof *kMetrics;
constexpr int kCount = 1 << 20, kLaunches = 3;

[[noreturn]] void fail(const char* call, long code) {
  std::fprintf(stderr, "checkpoint_replay: %s failed (%ld)\n", call, code);
  std::exit(1);
}
void check(cudaError_t e, const char* call) { if (e != cudaSuccess) fail(call, e); }
void check(CUresult e, const char* call) { if (e != CUDA_SUCCESS) fail(call, e); }
void check(CUptiResult e, const char* call) { if (e != CUPTI_SUCCESS) fail(call, e); }

template <class T>
T params(size_t size) {
  T p;
  std::memset(&p, 0, sizeof p);
  p.structSize = size;
  return p;
}
#define PARAMS(T) params<T>(T##_STRUCT_SIZE)

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

void print_rss(const char* step) {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);)
    if (line.rfind("VmRSS:", 0) == 0) std::printf("rss after %-28s %s\n", step, line.c_str() + 6);
}

__global__ void scale_add(float* a, const float* b, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = 2.f * a[i] + b[(i * 33) & (n - 1)];
}

struct State {
  float *a = nullptr, *b = nullptr;
  CUcontext program = nullptr, flusher = nullptr;
  char* flush = nullptr;
  size_t flush_bytes = 0;
  // profiling
  std::vector<uint8_t> config, data;
  CUpti_Profiler_Host_Object* host = nullptr;
  CUpti_RangeProfiler_Object* object = nullptr;
  CUpti_Checkpoint checkpoint{};
  double save_s = 0, restore_s = 0, launch_s = 0;
  int passes = 0;
  bool in_callback = false;
} g;

void flush_l2() {
  check(cuCtxSetCurrent(g.flusher), "cuCtxSetCurrent");
  flush_write<<<kBlocks, kThreads>>>(reinterpret_cast<uint4*>(g.flush), g.flush_bytes / 16);
  flush_discard<<<kBlocks, kThreads>>>(g.flush, g.flush_bytes / 128);
  check(cudaDeviceSynchronize(), "flush");
  check(cuCtxSetCurrent(g.program), "cuCtxSetCurrent");
}

void launch() { scale_add<<<kCount / 256, 256>>>(g.a, g.b, kCount); }

void set_up_profiler(CUpti_ProfilerReplayMode mode) {
  auto init = PARAMS(CUpti_Profiler_Initialize_Params);
  check(cuptiProfilerInitialize(&init), "cuptiProfilerInitialize");
  print_rss("cuptiProfilerInitialize");
  auto chip = PARAMS(CUpti_Device_GetChipName_Params);
  check(cuptiDeviceGetChipName(&chip), "cuptiDeviceGetChipName");
  auto avail = PARAMS(CUpti_Profiler_GetCounterAvailability_Params);
  avail.ctx = g.program;
  check(cuptiProfilerGetCounterAvailability(&avail), "availability");
  std::vector<uint8_t> availability(avail.counterAvailabilityImageSize);
  avail.pCounterAvailabilityImage = availability.data();
  check(cuptiProfilerGetCounterAvailability(&avail), "availability");
  auto host = PARAMS(CUpti_Profiler_Host_Initialize_Params);
  host.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
  host.pChipName = chip.pChipName;
  host.pCounterAvailabilityImage = availability.data();
  check(cuptiProfilerHostInitialize(&host), "cuptiProfilerHostInitialize");
  g.host = host.pHostObject;
  print_rss("cuptiProfilerHostInitialize");
  auto add = PARAMS(CUpti_Profiler_Host_ConfigAddMetrics_Params);
  add.pHostObject = g.host;
  add.ppMetricNames = kMetrics;
  add.numMetrics = kMetricCount;
  check(cuptiProfilerHostConfigAddMetrics(&add), "ConfigAddMetrics");
  auto size = PARAMS(CUpti_Profiler_Host_GetConfigImageSize_Params);
  size.pHostObject = g.host;
  check(cuptiProfilerHostGetConfigImageSize(&size), "GetConfigImageSize");
  g.config.resize(size.configImageSize);
  auto image = PARAMS(CUpti_Profiler_Host_GetConfigImage_Params);
  image.pHostObject = g.host;
  image.configImageSize = g.config.size();
  image.pConfigImage = g.config.data();
  check(cuptiProfilerHostGetConfigImage(&image), "GetConfigImage");
  auto passes = PARAMS(CUpti_Profiler_Host_GetNumOfPasses_Params);
  passes.configImageSize = g.config.size();
  passes.pConfigImage = g.config.data();
  check(cuptiProfilerHostGetNumOfPasses(&passes), "GetNumOfPasses");
  g.passes = static_cast<int>(passes.numOfPasses);
  std::printf("passes: %d\n", g.passes);

  auto enable = PARAMS(CUpti_RangeProfiler_Enable_Params);
  enable.ctx = g.program;
  check(cuptiRangeProfilerEnable(&enable), "cuptiRangeProfilerEnable");
  g.object = enable.pRangeProfilerObject;
  print_rss("cuptiRangeProfilerEnable");
  auto data_size = PARAMS(CUpti_RangeProfiler_GetCounterDataSize_Params);
  data_size.pRangeProfilerObject = g.object;
  data_size.pMetricNames = kMetrics;
  data_size.numMetrics = kMetricCount;
  data_size.maxNumOfRanges = 1;
  data_size.maxNumRangeTreeNodes = 1;
  check(cuptiRangeProfilerGetCounterDataSize(&data_size), "GetCounterDataSize");
  g.data.resize(data_size.counterDataSize);
  (void)mode;
}

void configure(CUpti_ProfilerReplayMode mode) {
  auto data_init = PARAMS(CUpti_RangeProfiler_CounterDataImage_Initialize_Params);
  data_init.pRangeProfilerObject = g.object;
  data_init.counterDataSize = g.data.size();
  data_init.pCounterData = g.data.data();
  check(cuptiRangeProfilerCounterDataImageInitialize(&data_init), "CounterDataImageInitialize");
  auto set = PARAMS(CUpti_RangeProfiler_SetConfig_Params);
  set.pRangeProfilerObject = g.object;
  set.configSize = g.config.size();
  set.pConfig = g.config.data();
  set.counterDataImageSize = g.data.size();
  set.pCounterDataImage = g.data.data();
  set.range = CUPTI_AutoRange;
  set.replayMode = mode;
  set.maxRangesPerPass = 1;
  set.numNestingLevels = 1;
  set.minNestingLevel = 1;
  set.targetNestingLevel = 1;
  check(cuptiRangeProfilerSetConfig(&set), "SetConfig");
}

void start() {
  auto start = PARAMS(CUpti_RangeProfiler_Start_Params);
  start.pRangeProfilerObject = g.object;
  check(cuptiRangeProfilerStart(&start), "Start");
}

bool stop() {
  auto stop = PARAMS(CUpti_RangeProfiler_Stop_Params);
  stop.pRangeProfilerObject = g.object;
  check(cuptiRangeProfilerStop(&stop), "Stop");
  return stop.isAllPassSubmitted;
}

void save() {
  const auto t = std::chrono::steady_clock::now();
  check(cuptiCheckpointSave(&g.checkpoint), "cuptiCheckpointSave");
  g.save_s += seconds_since(t);
}

void restore() {
  const auto t = std::chrono::steady_clock::now();
  check(cuptiCheckpointRestore(&g.checkpoint), "cuptiCheckpointRestore");
  g.restore_s += seconds_since(t);
}

void print_values(int launch) {
  auto decode = PARAMS(CUpti_RangeProfiler_DecodeData_Params);
  decode.pRangeProfilerObject = g.object;
  check(cuptiRangeProfilerDecodeData(&decode), "DecodeData");
  double values[kMetricCount] = {};
  auto eval = PARAMS(CUpti_Profiler_Host_EvaluateToGpuValues_Params);
  eval.pHostObject = g.host;
  eval.pCounterDataImage = g.data.data();
  eval.counterDataImageSize = g.data.size();
  eval.rangeIndex = 0;
  eval.ppMetricNames = kMetrics;
  eval.numMetrics = kMetricCount;
  eval.pMetricValues = values;
  check(cuptiProfilerHostEvaluateToGpuValues(&eval), "EvaluateToGpuValues");
  std::printf("launch %d:", launch);
  for (size_t i = 0; i < kMetricCount; ++i) std::printf(" %s=%.6g", kMetrics[i], values[i]);
  std::printf("\n");
}

/// The callback way: the earlier passes launched here at API entry, the program's own launch
/// the last pass, stopped and evaluated at API exit.
void CUPTIAPI on_launch(void*, CUpti_CallbackDomain, CUpti_CallbackId cbid, const void* raw) {
  if (g.in_callback) return;
  if (cbid != CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel && cbid != CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz) return;
  const auto* data = static_cast<const CUpti_CallbackData*>(raw);
  const auto* p = static_cast<const cuLaunchKernel_params*>(data->functionParams);
  static int launch = 0;
  if (data->callbackSite == CUPTI_API_ENTER) {
    g.in_callback = true;
    configure(CUPTI_UserReplay);
    save();
    for (int pass = 0; pass + 1 < g.passes; ++pass) {
      if (pass > 0) restore();
      flush_l2();
      start();
      check(cuLaunchKernel(p->f, p->gridDimX, p->gridDimY, p->gridDimZ, p->blockDimX, p->blockDimY, p->blockDimZ,
                           p->sharedMemBytes, p->hStream, p->kernelParams, p->extra),
            "cuLaunchKernel (replayed pass)");
      if (stop()) fail("all passes submitted before the last", 0);
    }
    if (g.passes > 1) restore();
    flush_l2();
    start();
    g.in_callback = false;
  } else {
    g.in_callback = true;
    check(cuCtxSynchronize(), "cuCtxSynchronize");
    if (!stop()) fail("passes left after the last", 0);
    print_values(launch++);
    g.in_callback = false;
  }
}

}  // namespace

int main(int argc, char** argv) {
  const std::string way = argc > 1 ? argv[1] : "user";
  print_rss("start");
  check(cudaFree(nullptr), "cudaFree");
  check(cuCtxGetCurrent(&g.program), "cuCtxGetCurrent");
  print_rss("program context");
  check(cudaMalloc(&g.a, kCount * sizeof(float)), "cudaMalloc");
  check(cudaMalloc(&g.b, kCount * sizeof(float)), "cudaMalloc");
  std::vector<float> a(kCount), b(kCount);
  for (int i = 0; i < kCount; ++i) {
    a[i] = float(i % 7);
    b[i] = float(i % 5);
  }
  check(cudaMemcpy(g.a, a.data(), kCount * sizeof(float), cudaMemcpyHostToDevice), "cudaMemcpy");
  check(cudaMemcpy(g.b, b.data(), kCount * sizeof(float), cudaMemcpyHostToDevice), "cudaMemcpy");
  int l2 = 0;
  check(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0), "L2 size");
  g.flush_bytes = 2 * size_t(l2);
  if (way != "none") {
    CUdevice dev = 0;
    CUctxCreateParams create{};
    check(cuDeviceGet(&dev, 0), "cuDeviceGet");
    check(cuCtxCreate(&g.flusher, &create, 0, dev), "cuCtxCreate");
    check(cudaMalloc(&g.flush, g.flush_bytes), "cudaMalloc (flush context)");
    check(cuCtxSetCurrent(g.program), "cuCtxSetCurrent");
    print_rss("flusher context");
    set_up_profiler(way == "kernel" ? CUPTI_KernelReplay : CUPTI_UserReplay);
  }
  g.checkpoint.structSize = CUpti_Checkpoint_STRUCT_SIZE;
  g.checkpoint.ctx = g.program;
  g.checkpoint.allowOverwrite = 1;
  CUpti_SubscriberHandle subscriber = nullptr;
  if (way == "callback") {
    check(cuptiSubscribe(&subscriber, on_launch, nullptr), "cuptiSubscribe");
    check(cuptiEnableDomain(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API), "cuptiEnableDomain");
  }
  const auto began = std::chrono::steady_clock::now();
  for (int launch_index = 0; launch_index < kLaunches; ++launch_index) {
    const auto t = std::chrono::steady_clock::now();
    if (way == "user") {
      configure(CUPTI_UserReplay);
      save();
      for (bool done = false, first = true; !done; first = false) {
        if (!first) restore();
        flush_l2();
        start();
        launch();
        done = stop();
      }
      print_values(launch_index);
    } else if (way == "kernel") {
      configure(CUPTI_KernelReplay);
      flush_l2();
      start();
      launch();
      if (!stop()) fail("kernel replay left passes", 0);
      print_values(launch_index);
    } else {
      launch();
    }
    check(cudaDeviceSynchronize(), "launch");
    g.launch_s += seconds_since(t);
    if (launch_index == 0) print_rss("first profiled launch");
  }
  const double total = seconds_since(began);
  check(cudaMemcpy(a.data(), g.a, kCount * sizeof(float), cudaMemcpyDeviceToHost), "cudaMemcpy");
  int wrong = 0;
  for (int i = 0; i < kCount; ++i) {
    float expected = float(i % 7);
    for (int l = 0; l < kLaunches; ++l) expected = 2.f * expected + float(((i * 33) & (kCount - 1)) % 5);
    if (std::fabs(a[i] - expected) > 1e-3f * std::fabs(expected) + 1e-3f) ++wrong;
  }
  std::printf("%s: %d launches in %.4f s (save %.4f s, restore %.4f s); result %s (%d wrong)\n", way.c_str(), kLaunches,
              total, g.save_s, g.restore_s, wrong ? "WRONG" : "ok", wrong);
  print_rss("end");
  if (subscriber) cuptiUnsubscribe(subscriber);
  return wrong ? 1 : 0;
}
