// Where should the L2 flusher's kernels run? labbook's flusher makes a context of its own
// (cuCtxCreate), which costs about 99 MB of host memory, the margin by which a lab-4 metrics
// run exceeds ncu's. A green context (cuGreenCtxCreate over the device's whole SM resource)
// retains the primary context instead of making another. This probe asks, for each way:
//   - resident memory (VmRSS) after each step of the flusher's preparation;
//   - whether CUPTI's range profiler on the program's context (auto range) counts the
//     flusher's kernels: the ranges it holds after K, flush, K, K, flush, K must be 4;
//   - whether the flush empties L2: K reads 16 MB (a third of L2), so after a flush its DRAM
//     read is ~16 MB again, and after no flush ~0.
//   flusher_context full|green|none
// Build and run on the GPU machine:
//   nvcc -O2 -std=c++17 -o /tmp/fc tools/probes/flusher_context.cu -I. -lcupti -lcuda
// Not a lab and not a test: it checks nothing but its own result.
// H200, CUPTI 13.0, driver 580.159.04 (2026-11-29), two processes of each way:
//   resident memory: program context 111 MB; full: + context 91 MB, + module 28 MB (the PTX
//   compiled, the first process only: the JIT cache holds it after), end of run 395-399 MB;
//   green: + context 1.8 MB, + module 0.03 MB, end of run 297 MB; none: 295 MB
//   ranges: full 4 (16.78 MB read after each flush, 0.00 after none); green 8: each flush's two
//   kernels (write 29-31 us, discard 11.6 us) are ranges of the program's context, the kernel
//   after them reads 16.78 MB. A green context's kernels count as the primary context's.
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "profiler/l2_flush_kernel.h"
#include "tools/probes/probe_profiler.h"

namespace {

constexpr int kCount = 4 << 20;   // 16 MB of floats

__global__ void read_all(const float* in, float* out, int n) {
  float sum = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) sum += in[i];
  if (sum == -1.0f) out[0] = sum;   // never: keeps the reads
}

void print_rss(const char* step) {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);)
    if (line.rfind("VmRSS:", 0) == 0) std::printf("rss after %-24s %s\n", step, line.c_str() + 6);
}

struct Flusher {
  CUcontext ctx = nullptr;
  CUfunction kernel = nullptr;
  CUdeviceptr buffer = 0;
  std::uint64_t bytes = 0;
  unsigned blocks = 0;
};

Flusher prepare(const std::string& way, CUcontext program) {
  Flusher f;
  CUdevice dev = 0;
  CHECK(cuDeviceGet(&dev, 0));
  if (way == "full") {
    CUctxCreateParams params{};
    CHECK(cuCtxCreate(&f.ctx, &params, 0, dev));
  } else {
    CUdevResource sms{};
    CHECK(cuDeviceGetDevResource(dev, &sms, CU_DEV_RESOURCE_TYPE_SM));
    CUdevResourceDesc desc = nullptr;
    CHECK(cuDevResourceGenerateDesc(&desc, &sms, 1));
    CUgreenCtx green = nullptr;
    CHECK(cuGreenCtxCreate(&green, desc, dev, CU_GREEN_CTX_DEFAULT_STREAM));
    CHECK(cuCtxFromGreenCtx(&f.ctx, green));
    CHECK(cuCtxPushCurrent(f.ctx));
    std::printf("green context: %u SMs\n", sms.sm.smCount);
  }
  print_rss("context");
  unsigned long long program_id = 0, flusher_id = 0;
  cuCtxGetId(program, &program_id);
  cuCtxGetId(f.ctx, &flusher_id);
  std::printf("context ids: program %llu, flusher %llu\n", program_id, flusher_id);
  CUmodule module = nullptr;
  CHECK(cuModuleLoadData(&module, labbook::profiler::kL2FlushPtx));
  CHECK(cuModuleGetFunction(&f.kernel, module, labbook::profiler::kL2FlushKernel));
  print_rss("module (PTX)");
  int l2 = 0, sms = 0;
  cuDeviceGetAttribute(&l2, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, dev);
  cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev);
  f.bytes = 2 * std::uint64_t(l2);
  f.blocks = sms * 8;
  CHECK(cuMemAlloc(&f.buffer, f.bytes));
  print_rss("buffer");
  CUcontext popped = nullptr;
  CHECK(cuCtxPopCurrent(&popped));
  CHECK(cuCtxSetCurrent(program));
  return f;
}

void flush(const Flusher& f) {
  using labbook::profiler::FlushPass;
  CHECK(cuCtxPushCurrent(f.ctx));
  for (FlushPass pass : {FlushPass::Write, FlushPass::Discard}) {
    unsigned mode = labbook::profiler::l2_flush_mode(pass);
    std::uint64_t units = f.bytes / labbook::profiler::l2_flush_unit_bytes(pass);
    CUdeviceptr buffer = f.buffer;
    void* args[] = {&buffer, &units, &mode};
    CHECK(cuLaunchKernel(f.kernel, f.blocks, 1, 1, 256, 1, 1, 0, nullptr, args, nullptr));
  }
  CHECK(cuCtxSynchronize());
  CUcontext popped = nullptr;
  CHECK(cuCtxPopCurrent(&popped));
}

}  // namespace

int main(int argc, char** argv) {
  const std::string way = argc > 1 ? argv[1] : "green";
  print_rss("start");
  CHECK(cudaFree(nullptr));
  CUcontext program = nullptr;
  CHECK(cuCtxGetCurrent(&program));
  print_rss("program context");
  float *in = nullptr, *out = nullptr;
  CHECK(cudaMalloc(&in, kCount * sizeof(float)));
  CHECK(cudaMalloc(&out, sizeof(float)));
  CHECK(cudaMemset(in, 0, kCount * sizeof(float)));
  Flusher f;
  if (way != "none") f = prepare(way, program);

  probe::initialize_profiler();
  auto availability = probe::counter_availability(program);
  auto* host = probe::host_object(probe::chip_name(0), availability);
  char list[] = "dram__bytes_read.sum,gpu__time_duration.sum";
  auto names = probe::split_metrics(list);
  std::size_t passes = 0;
  auto config = probe::config_image(host, names, passes);
  auto* profiler = probe::enable(program);
  auto data = probe::counter_data(profiler, names, 16);
  probe::initialize_counter_data(profiler, data);
  probe::set_config(profiler, config, data, 16, CUPTI_UserReplay);
  std::printf("passes: %zu\n", passes);
  print_rss("profiler");

  // K, flush, K, K, flush, K: ranges 1 and 3 follow a flush, range 2 does not.
  probe::start(profiler);
  const bool flushes = way != "none";
  read_all<<<1024, 256>>>(in, out, kCount);
  CHECK(cudaDeviceSynchronize());
  if (flushes) flush(f);
  read_all<<<1024, 256>>>(in, out, kCount);
  CHECK(cudaDeviceSynchronize());
  read_all<<<1024, 256>>>(in, out, kCount);
  CHECK(cudaDeviceSynchronize());
  if (flushes) flush(f);
  read_all<<<1024, 256>>>(in, out, kCount);
  CHECK(cudaDeviceSynchronize());
  probe::stop(profiler);
  const std::size_t dropped = probe::decode(profiler);
  const std::size_t ranges = probe::ranges_in(data);
  std::printf("%s: ranges %zu (dropped %zu), want 4\n", way.c_str(), ranges, dropped);
  for (std::size_t r = 0; r < ranges; ++r)
    std::printf("  range %zu: dram read %.2f MB, %.1f us\n", r, probe::value_of(host, data, r, names[0]) / 1e6,
                probe::value_of(host, data, r, names[1]) / 1e3);
  print_rss("end");
  probe::tear_down(profiler, host);
  return 0;
}
