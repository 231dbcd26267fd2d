// What a profiled launch costs in CUPTI, part by part (issue 34): K launches of a kernel over a
// 64 MiB array (256 MiB allocated, as lab 4's arrays), each replayed for every pass of the
// metric set (the memory saved; each pass after the first puts it back; each pass: Start,
// flush L2, launch, Stop), after CUPTI's set-up and one warm-up pass, not counted.
//   kernel_replay_cost LAUNCHES CHECKPOINT FLUSH METRIC[,METRIC...] [WAY]
//   CHECKPOINT  none (no memory saved: the floor of Start and Stop alone) | plain | transfer
//               (CUPTI_CHECKPOINT_OPT_TRANSFER: only blocks that changed are put back; with
//               FLUSH 1 its restore failed, CUPTI_ERROR_UNKNOWN, on the H200 with driver 580)
//   FLUSH       0 | 1 (a kernel writing twice L2's size from a context of its own before each
//               pass, waited for: labbook's flusher's first pass)
//   WAY         shared (default): one config and counter data image for all launches, their
//               passes one cycle after another; does each range get its launch's values?
//               per-launch: as labbook's kernel replay does it, one range an image: the image
//               initialized, the config set, and decoded at every launch ("config" below)
//               application: the first pass of application replay instead (one Start, the
//               launches, one Stop), what each launch costs a run beyond running (CHECKPOINT
//               is not used)
// Prints the milliseconds a launch spent in each part, then the ranges decoded and the first
// metric's smallest and largest value over them (the launches are alike: a range whose value
// differs much from the others' got another launch's counters, or none).
// Build and run on the GPU machine (LD_LIBRARY_PATH naming CUPTI's folder), or bench/cupti_floor.sh:
//   nvcc -O2 -o /tmp/replay_cost tools/probes/kernel_replay_cost.cu -lcupti -lcheckpoint -lcuda
//   /tmp/replay_cost 20 plain 1 "$(labbook metrics --lab lab4)" per-launch
// Exit 1 on a failed call.
#include <cuda_runtime.h>
#include <cupti_checkpoint.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "probe_profiler.h"

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

}  // namespace

int main(int argc, char** argv) {
  const std::string way = argc == 6 ? argv[5] : "shared";
  if ((argc != 5 && argc != 6) || (way != "shared" && way != "per-launch" && way != "application")) {
    std::fprintf(stderr,
                 "usage: kernel_replay_cost LAUNCHES none|plain|transfer 0|1 METRIC[,METRIC...] "
                 "[shared|per-launch|application]\n");
    return 2;
  }
  const bool application = way == "application", per_launch = way == "per-launch";
  const long launches = std::atol(argv[1]);
  const std::string checkpointing = argv[2];
  if (checkpointing != "none" && checkpointing != "plain" && checkpointing != "transfer") {
    std::fprintf(stderr, "kernel_replay_cost: CHECKPOINT is none, plain or transfer, not '%s'\n", argv[2]);
    return 2;
  }
  const bool flushing = std::string(argv[3]) == "1";
  std::vector<const char*> names = probe::split_metrics(argv[4]);

  const std::size_t total = 256u << 20, used = 64u << 20;
  float* memory = nullptr;
  CHECK(cudaMalloc(&memory, total));
  CHECK(cudaMemset(memory, 0, total));
  const auto launch = [&] {
    scale<<<1024, 256>>>(memory, used / sizeof(float));
    CHECK(cudaGetLastError());
  };
  launch();
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

  probe::initialize_profiler();
  // Kept while the host object lives: CUPTI reads it when it makes the config image (a
  // temporary here crashed libnvperf_host on the H200, CUDA 13.0).
  const std::vector<std::uint8_t> availability = probe::counter_availability(ctx);
  CUpti_Profiler_Host_Object* host = probe::host_object(probe::chip_name(0), availability);
  std::size_t passes = 0;
  std::vector<std::uint8_t> config = probe::config_image(host, names, passes);
  CUpti_RangeProfiler_Object* profiler = probe::enable(ctx);
  const std::size_t ranges = per_launch ? 1 : static_cast<std::size_t>(launches);
  std::vector<std::uint8_t> counter_data = probe::counter_data(profiler, names, ranges);
  const CUpti_ProfilerReplayMode replay = application ? CUPTI_ApplicationReplay : CUPTI_UserReplay;
  const auto configure = [&] {
    probe::initialize_counter_data(profiler, counter_data);
    probe::set_config(profiler, config, counter_data, ranges, replay);
  };
  configure();
  if (!application) {   // CUPTI's first Start, out of the count: a whole launch's passes,
    // decoded, then the passes start afresh as labbook's do
    for (std::size_t pass = 0; pass < passes; ++pass) {
      probe::start(profiler);
      launch();
      probe::stop(profiler);
    }
    probe::decode(profiler);
    configure();
  }

  CUpti_Checkpoint checkpoint{};
  checkpoint.structSize = CUpti_Checkpoint_STRUCT_SIZE;
  checkpoint.ctx = ctx;
  checkpoint.allowOverwrite = 1;
  checkpoint.optimizations = checkpointing == "transfer" ? NV::Cupti::Checkpoint::CUPTI_CHECKPOINT_OPT_TRANSFER : 0;
  const bool saving = !application && checkpointing != "none";

  Clock saves, restores, starts, stops, flushes, kernels, configs;
  std::vector<double> values;   // the first metric's, a range each
  const auto whole = std::chrono::steady_clock::now();
  if (application) {
    probe::start(profiler);
    for (long k = 0; k < launches; ++k) {
      if (flushing) flushes.time(flush);
      kernels.time(launch);
    }
    CHECK(cudaDeviceSynchronize());
  } else {
    for (long k = 0; k < launches; ++k) {
      if (per_launch && k > 0) configs.time(configure);
      if (saving) saves.time([&] {
        CHECK(cuCtxSynchronize());
        CHECK(NV::Cupti::Checkpoint::cuptiCheckpointSave(&checkpoint));
      });
      for (std::size_t pass = 0; pass < passes; ++pass) {
        if (saving && pass > 0) restores.time([&] { CHECK(NV::Cupti::Checkpoint::cuptiCheckpointRestore(&checkpoint)); });
        starts.time([&] { probe::start(profiler); });
        if (flushing) flushes.time(flush);
        kernels.time(launch);
        stops.time([&] { probe::stop(profiler); });
      }
      if (per_launch) configs.time([&] {
        probe::decode(profiler);
        values.push_back(probe::value_of(host, counter_data, 0, names[0]));
      });
    }
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - whole).count();
  if (application) stops.time([&] { probe::stop(profiler); });
  std::size_t dropped = 0;
  if (!per_launch) {
    dropped = probe::decode(profiler);
    if (!application || passes == 1)   // application replay's first pass alone is no value
      for (std::size_t r = 0; r < probe::ranges_in(counter_data); ++r)
        values.push_back(probe::value_of(host, counter_data, r, names[0]));
  }
  if (saving) CHECK(NV::Cupti::Checkpoint::cuptiCheckpointFree(&checkpoint));
  const double n = static_cast<double>(launches);
  std::printf("%s, %ld launches, %zu passes, checkpoint %s, flush %d: %.2f ms a launch (save %.2f, restore %.2f, "
              "start %.2f, stop %.2f, flush %.2f, launch %.2f, config %.2f); %zu ranges (%zu dropped), %s %g to %g\n",
              way.c_str(), launches, passes, saving ? checkpointing.c_str() : "none", flushing ? 1 : 0,
              1e3 * seconds / n, 1e3 * saves.seconds / n, 1e3 * restores.seconds / n, 1e3 * starts.seconds / n,
              1e3 * stops.seconds / n, 1e3 * flushes.seconds / n, 1e3 * kernels.seconds / n, 1e3 * configs.seconds / n,
              values.size(), dropped, names[0], values.empty() ? 0.0 : *std::min_element(values.begin(), values.end()),
              values.empty() ? 0.0 : *std::max_element(values.begin(), values.end()));
  return 0;
}
