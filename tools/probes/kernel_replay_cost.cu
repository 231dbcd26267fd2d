// What a profiled launch costs in CUPTI, part by part (issue 34): K launches of a kernel over a
// 64 MiB array (256 MiB allocated, as lab 4's arrays), each replayed for every pass of the
// metric set (the memory saved; each pass after the first puts it back; each pass: Start,
// flush L2, launch, Stop), with CUPTI's set-up and one warm-up pass before the first launch,
// not counted. One config and counter data image serve all launches: labbook's kernel replay
// also initializes its image, sets the config and decodes at every launch (one range an
// image), so its cost a launch is higher than this floor. Prints the milliseconds a launch
// spent in each part.
//   kernel_replay_cost LAUNCHES CHECKPOINT FLUSH METRIC[,METRIC...] [application]
//   CHECKPOINT  none (no memory saved: the floor of Start and Stop alone) | plain | transfer
//               (CUPTI_CHECKPOINT_OPT_TRANSFER: only blocks that changed are put back; with
//               FLUSH 1 its restore failed, CUPTI_ERROR_UNKNOWN, on the H200 with driver 580)
//   FLUSH       0 | 1 (a kernel writing twice L2's size from a context of its own before each
//               pass, waited for: labbook's flusher's first pass)
//   application  instead: the first pass of application replay (one Start, the launches, one
//                Stop), what each launch costs a run of the program beyond running (CHECKPOINT
//                is not used)
// Build and run on the GPU machine (LD_LIBRARY_PATH naming CUPTI's folder):
//   nvcc -O2 -o /tmp/replay_cost tools/probes/kernel_replay_cost.cu -lcupti -lcheckpoint -lcuda
//   /tmp/replay_cost 20 plain 1 "$(labbook metrics --lab lab4)"
// Exit 1 on a failed call.
#include <cuda_runtime.h>
#include <cupti_checkpoint.h>

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
  const bool application = argc == 6 && std::string(argv[5]) == "application";
  if (argc != 5 && !application) {
    std::fprintf(stderr, "usage: kernel_replay_cost LAUNCHES none|plain|transfer 0|1 METRIC[,METRIC...] [application]\n");
    return 2;
  }
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

  probe::initialize_profiler();
  const char* chip = probe::chip_name(0);
  CUpti_Profiler_Host_Object* host = probe::host_object(chip, probe::counter_availability(ctx));
  std::size_t passes = 0;
  std::vector<std::uint8_t> config = probe::config_image(host, names, passes);
  CUpti_RangeProfiler_Object* profiler = probe::enable(ctx);
  const auto ranges = static_cast<std::size_t>(launches);
  std::vector<std::uint8_t> counter_data = probe::counter_data(profiler, names, ranges);
  probe::initialize_counter_data(profiler, counter_data);
  probe::set_config(profiler, config, counter_data, ranges, application ? CUPTI_ApplicationReplay : CUPTI_UserReplay);
  // CUPTI's first Start, out of the count: it is the same whatever the replay.
  if (!application) {
    probe::start(profiler);
    probe::stop(profiler);
  }

  CUpti_Checkpoint checkpoint{};
  checkpoint.structSize = CUpti_Checkpoint_STRUCT_SIZE;
  checkpoint.ctx = ctx;
  checkpoint.allowOverwrite = 1;
  checkpoint.optimizations = checkpointing == "transfer" ? NV::Cupti::Checkpoint::CUPTI_CHECKPOINT_OPT_TRANSFER : 0;
  const bool saving = checkpointing != "none";

  Clock saves, restores, starts, stops, flushes, kernels;
  if (application) {
    probe::start(profiler);
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
    stops.time([&] { probe::stop(profiler); });
    const std::size_t dropped = probe::decode(profiler);
    std::printf("application, %ld launches, flush %d: %.2f ms a launch (flush %.2f, launch %.2f), then stop %.1f ms, "
                "%zu ranges dropped\n",
                launches, flushing ? 1 : 0, 1e3 * seconds / launches, 1e3 * flushes.seconds / launches,
                1e3 * kernels.seconds / launches, 1e3 * stops.seconds, dropped);
    return 0;
  }
  const auto whole = std::chrono::steady_clock::now();
  for (long k = 0; k < launches; ++k) {
    if (saving) saves.time([&] {
      CHECK(cuCtxSynchronize());
      CHECK(NV::Cupti::Checkpoint::cuptiCheckpointSave(&checkpoint));
    });
    for (std::size_t pass = 0; pass < passes; ++pass) {
      if (saving && pass > 0) restores.time([&] { CHECK(NV::Cupti::Checkpoint::cuptiCheckpointRestore(&checkpoint)); });
      starts.time([&] { probe::start(profiler); });
      if (flushing) flushes.time(flush);
      kernels.time([&] {
        scale<<<1024, 256>>>(memory, used / sizeof(float));
        CHECK(cudaGetLastError());
      });
      stops.time([&] { probe::stop(profiler); });
    }
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - whole).count();
  const std::size_t dropped = probe::decode(profiler);
  if (saving) CHECK(NV::Cupti::Checkpoint::cuptiCheckpointFree(&checkpoint));
  const double n = static_cast<double>(launches);
  std::printf("%ld launches, %zu passes, checkpoint %s, flush %d: %.1f ms a launch (save %.1f, restore %.1f, "
              "start %.1f, stop %.1f, flush %.1f, launch %.1f), %zu ranges dropped\n",
              launches, passes, checkpointing.c_str(), flushing ? 1 : 0, 1e3 * seconds / n,
              1e3 * saves.seconds / n, 1e3 * restores.seconds / n, 1e3 * starts.seconds / n, 1e3 * stops.seconds / n,
              1e3 * flushes.seconds / n, 1e3 * kernels.seconds / n, dropped);
  return 0;
}
