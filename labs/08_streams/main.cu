// Lab 8 — streams, events and overlap.
//
// Reproduces the stream and event material of 000_e84d1941bb8bbaf9.txt (VI « Les flux »: the
// two-stream copy/kernel/copy example, timed between events) and 004_12112d3317679e06.txt
// (CUDA streams: pipelining one stream per task, the NULL stream's implicit synchronisation,
// concurrent kernels; events: resolution, busy-wait or blocking synchronisation) on today's
// GPU. Every experiment is one NVTX range such as "pipeline/streams=4"; numbers found on the
// host (a timer's resolution, how long a call took to return) travel as range payloads; every
// kernel's output and every copy is checked on the host. Runs on its own; labbook only watches it.
//
//   lab8_streams [--repeat R] [--only TEXT] [--elements W] [--rounds K] [--tasks T]
//                [--spin-ms MS] [--pairs P] [--max-streams S] [--connections C] [--seed S]
//
// Exit codes: 0 all results correct, 1 a wrong result or CUDA error, 2 bad arguments,
// 77 no GPU.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "arguments.h"
#include "concurrency.cuh"
#include "cuda_check.h"
#include "default_stream.cuh"
#include "device_launch.cuh"
#include "events.cuh"
#include "host_return.cuh"
#include "lab_run.h"
#include "overlap.cuh"

namespace {

using labbook::lab::Options;

Options parse_options(int argc, char** argv) {
  Options o;
  labbook::lab::Arguments args(argc, argv, "lab8_streams",
                               "[--repeat R] [--only TEXT] [--elements W] [--rounds K] [--tasks T] [--spin-ms MS] "
                               "[--pairs P] [--max-streams S] [--connections C] [--seed S]");
  while (args.next()) {
    if (args.flag() == "--repeat") o.repeat = args.number<int>(0, 100);
    else if (args.flag() == "--only") o.only = args.value();
    else if (args.flag() == "--elements") o.elements = args.number<std::size_t>(1, 1u << 28);
    else if (args.flag() == "--rounds") o.rounds = args.number<std::uint32_t>(0, 1u << 20);
    else if (args.flag() == "--tasks") o.tasks = args.number<unsigned>(1, 64);
    else if (args.flag() == "--spin-ms") o.spin_ms = args.number<unsigned>(1, 1000);
    else if (args.flag() == "--pairs") o.pairs = args.number<unsigned>(2, 1u << 16);
    else if (args.flag() == "--max-streams") o.max_streams = args.number<unsigned>(1, 1024);
    else if (args.flag() == "--connections") o.connections = args.number<unsigned>(1, 32);
    else if (args.flag() == "--seed") o.seed = args.number<std::uint64_t>(0, ~0ull);
    else args.fail("unknown argument '" + args.flag() + "'");
  }
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  const Options opt = parse_options(argc, argv);
  // Read by the driver when it makes the context: before any other CUDA call.
  if (opt.connections) setenv("CUDA_DEVICE_MAX_CONNECTIONS", std::to_string(opt.connections).c_str(), 1);
  const cudaDeviceProp prop = labbook::lab::require_gpu();
  int concurrent_kernels = 0, async_engines = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&concurrent_kernels, cudaDevAttrConcurrentKernels, 0));
  CUDA_CHECK(cudaDeviceGetAttribute(&async_engines, cudaDevAttrAsyncEngineCount, 0));
  const char* connections = std::getenv("CUDA_DEVICE_MAX_CONNECTIONS");
  std::printf("lab 8 on %s (CC %d.%d), %d SMs, concurrent kernels: %s, copy engines: %d, "
              "CUDA_DEVICE_MAX_CONNECTIONS=%s, %d runs per experiment\n\n",
              prop.name, prop.major, prop.minor, prop.multiProcessorCount, concurrent_kernels ? "yes" : "no",
              async_engines, connections ? connections : "(driver default)", 1 + opt.repeat);

  labbook::lab::LabRun run(opt);
  {
    // Each kernel's module loading and first launch stay out of the experiments.
    labbook::lab::NvtxPath range("warm_up");
    labbook::lab::Tags tags(2);
    labbook::kernels::spinCycles<<<1, 32>>>(0, tags.get(), 0, 1);
    labbook::kernels::spinFor<<<1, 32>>>(0, tags.get(), 1, 2);
    labbook::kernels::affineRounds<<<1, 32>>>(tags.get(), tags.get(), 0, 1);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
  }
  labbook::lab::run_events(run);
  labbook::lab::run_host_return(run);
  labbook::lab::run_two_streams(run);
  labbook::lab::run_pipeline(run);
  labbook::lab::run_default_stream(run);
  labbook::lab::run_concurrency(run);
  labbook::lab::run_device_launch(run);
  return run.finish();
}
