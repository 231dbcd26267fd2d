// A study program for tools/probe-l2-flush-state.sh: one 1024² naive transpose (4-byte stores
// 4 KB apart, so every sector is written partially by 8 warps), set up the way the caller asks,
// after an optional flush of L2 done by the program itself with the passes labbook's flusher
// uses (profiler/l2_flusher.cpp). Profiled with `--cache-control none`, its DRAM counters say
// whether that flush leaves L2 as `ncu --cache-control all` does; profiled with labbook or ncu
// and cache control all, whether the state before the flush matters.
//   l2_flush_state [alloc-first] [copies] [copy-kernel] [read-back] [pause] [flush=PASSES] [flush-size=K]
//   alloc-first  the matrices are the context's first allocations (as in tests/programs/transpose),
//                not placed after a buffer three times the L2
//   copies       the matrices get their data from cudaMemcpy and cudaMemset, not from kernels
//   copy-kernel  a coalesced copy of the input into the output runs before the transpose
//   read-back    the output is copied to the host before the flush
//   pause        the host then waits 20 ms, the GPU idle, as while the test program checks
//                its copy
//   flush=P      the program flushes L2 itself before the transpose: P is write, discard, read
//                or write-lines passes over its flush buffer, comma-separated, in order;
//                write-lines writes each 128-byte line from the thread that discard gives it
//                (write spreads a line over 8 threads, which may sit by the other L2 partition)
//   flush-size=K the flush buffer is K times the L2 (default 2, as labbook's)
//   flush-context=other  the flush runs in a context of its own (cuCtxCreate), as labbook's
//                flusher does, created just before the flush
//   flush-first  with flush-context=other: that context and its buffer are made before the
//                program allocates anything (as labbook's flusher prepared at context creation)
//   flush-kernel=labbook  the passes run labbook's own flush kernel (profiler/l2_flush_kernel.h:
//                PTX built by the driver) instead of this program's, with labbook's launch shape
//   repeat=N     flush (as asked) and transpose N times, each transpose timed by the program's
//                own events, and print their median: a clock that reads the same with any tool
//   touch        after a flush in the other context, a 4-byte memset in the program's
//                context before the transpose (the GPU switches back to it there, not at the kernel)
// Exit 0, or 1 with the CUDA error on stderr. Not a lab and not a test: it checks nothing.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <cuda.h>
#include <cuda_runtime.h>

#include "../../profiler/l2_flush_kernel.h"
#include "flush_probe_kernels.cuh"

__global__ void fill(float* p, size_t n, float value) {
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) p[i] = value;
}

__global__ void flush_write_lines(uint4* buffer, size_t lines) {
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < lines; i += gridDim.x * blockDim.x)
    for (int k = 0; k < 8; ++k) buffer[i * 8 + k] = make_uint4(0, 0, 0, 0);
}

__global__ void flush_read(const uint4* buffer, size_t units, unsigned* sink) {
  unsigned x = 0;
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < units; i += gridDim.x * blockDim.x) {
    const uint4 v = __ldcg(buffer + i);
    x ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  if (x == 0x9E3779B9u) *sink = x;   // never true for zeros: keeps the loads
}

namespace {

void check(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return;
  std::fprintf(stderr, "l2_flush_state: %s: %s\n", what, cudaGetErrorString(e));
  std::exit(1);
}

using labbook::profiler::FlushPass;

FlushPass pass_named(const std::string& name) {   // exits 2 on a name it does not know
  if (name == "write") return FlushPass::Write;
  if (name == "discard") return FlushPass::Discard;
  if (name == "read") return FlushPass::Read;
  if (name == "write-lines") return FlushPass::WriteLines;
  std::fprintf(stderr, "l2_flush_state: unknown flush pass '%s'\n", name.c_str());
  std::exit(2);
}

// The passes with labbook's flush kernel, loaded into the current context as the flusher does.
void run_labbook_flush(const std::vector<FlushPass>& passes, char* buffer, size_t bytes) {
  static CUfunction kernel = nullptr;   // loaded once: the flush context is the same every time
  if (!kernel) {
    CUmodule module = nullptr;
    if (cuModuleLoadData(&module, labbook::profiler::kL2FlushPtx) != CUDA_SUCCESS ||
        cuModuleGetFunction(&kernel, module, labbook::profiler::kL2FlushKernel) != CUDA_SUCCESS)
      check(cudaErrorUnknown, "loading labbook's flush kernel");
  }
  int sms = 0;
  check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0), "SM count");
  for (const FlushPass pass : passes) {
    unsigned mode = labbook::profiler::l2_flush_mode(pass);
    unsigned long long units = bytes / labbook::profiler::l2_flush_unit_bytes(pass);
    CUdeviceptr where = reinterpret_cast<CUdeviceptr>(buffer);
    void* args[] = {&where, &units, &mode};
    if (cuLaunchKernel(kernel, sms * 8, 1, 1, 256, 1, 1, 0, nullptr, args, nullptr) != CUDA_SUCCESS)
      check(cudaErrorLaunchFailure, "launching labbook's flush kernel");
  }
}

}  // namespace

int main(int argc, char** argv) {
  bool alloc_first = false, copies = false, copy_kernel = false, read_back = false, pause = false;
  bool other_context = false, flush_first = false, touch = false, labbook_kernel = false;
  std::vector<FlushPass> passes;
  int flush_size = 2, repeat = 0;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "alloc-first") alloc_first = true;
    else if (a == "copies") copies = true;
    else if (a == "copy-kernel") copy_kernel = true;
    else if (a == "read-back") read_back = true;
    else if (a == "pause") pause = true;
    else if (a == "flush-context=other") other_context = true;
    else if (a == "flush-first") flush_first = true;
    else if (a == "touch") touch = true;
    else if (a == "flush-kernel=labbook") labbook_kernel = true;
    else if (a.rfind("flush-size=", 0) == 0) flush_size = std::atoi(a.c_str() + 11);
    else if (a.rfind("repeat=", 0) == 0) repeat = std::atoi(a.c_str() + 7);
    else if (a.rfind("flush=", 0) == 0) {
      std::stringstream list(a.substr(6));
      for (std::string p; std::getline(list, p, ',');) passes.push_back(pass_named(p));
    } else {
      std::fprintf(stderr, "l2_flush_state: unknown argument '%s'\n", a.c_str());
      return 2;
    }
  }
  if (repeat < 0) {
    std::fprintf(stderr, "l2_flush_state: repeat must not be negative\n");
    return 2;
  }
  if (flush_size < 1) {
    std::fprintf(stderr, "l2_flush_state: flush-size must be a positive number\n");
    return 2;
  }
  int l2 = 0;
  check(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0), "L2 size");
  const size_t count = size_t{kN} * kN, bytes = count * sizeof(float), flush_bytes = size_t(flush_size) * size_t(l2);
  float *in = nullptr, *out = nullptr;
  char *before = nullptr, *flush = nullptr;
  unsigned* sink = nullptr;
  CUcontext flush_ctx = nullptr;
  auto make_flush_context = [&] {   // a context of its own, with the flush buffer in it
    CUdevice dev = 0;
    CUctxCreateParams params{};
    if (cuInit(0) != CUDA_SUCCESS || cuDeviceGet(&dev, 0) != CUDA_SUCCESS ||
        cuCtxCreate(&flush_ctx, &params, 0, dev) != CUDA_SUCCESS) check(cudaErrorUnknown, "cuCtxCreate");
    check(cudaMalloc(&flush, flush_bytes), "cudaMalloc (flush context)");
    CUcontext popped = nullptr;
    cuCtxPopCurrent(&popped);
  };
  if (other_context && flush_first) make_flush_context();
  if (alloc_first) {
    check(cudaMalloc(&in, bytes), "cudaMalloc");
    check(cudaMalloc(&out, bytes), "cudaMalloc");
  }
  check(cudaMalloc(&before, 3 * size_t(l2)), "cudaMalloc");
  if (!other_context) check(cudaMalloc(&flush, flush_bytes), "cudaMalloc");
  check(cudaMalloc(&sink, sizeof(unsigned)), "cudaMalloc");
  if (!alloc_first) {
    check(cudaMalloc(&in, bytes), "cudaMalloc");
    check(cudaMalloc(&out, bytes), "cudaMalloc");
  }
  std::vector<float> host(count, 1.f);
  if (copies) {
    check(cudaMemcpy(in, host.data(), bytes, cudaMemcpyHostToDevice), "cudaMemcpy");
    check(cudaMemset(out, 0, bytes), "cudaMemset");
  } else {
    fill<<<kBlocks, kThreads>>>(in, count, 1.f);
    fill<<<kBlocks, kThreads>>>(out, count, 0.f);
  }
  const dim3 grid(kN / kTile, kN / kTile), block(kTile, kRows);
  if (copy_kernel) copy_rows<<<grid, block>>>(out, in, kN);
  if (read_back) check(cudaMemcpy(host.data(), out, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy");
  if (pause) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  auto flush_l2 = [&] {   // the program's own flush, as asked
    if (passes.empty()) return;
    if (other_context) {
      check(cudaDeviceSynchronize(), "the program's work");   // as at a launch after a synchronous copy
      if (!flush_ctx) make_flush_context();
      cuCtxPushCurrent(flush_ctx);
    }
    if (labbook_kernel) {
      run_labbook_flush(passes, flush, flush_bytes);
    } else {
      for (const FlushPass p : passes) {
        if (p == FlushPass::Write) flush_write<<<kBlocks, kThreads>>>(reinterpret_cast<uint4*>(flush), flush_bytes / 16);
        else if (p == FlushPass::WriteLines) flush_write_lines<<<kBlocks, kThreads>>>(reinterpret_cast<uint4*>(flush), flush_bytes / 128);
        else if (p == FlushPass::Read) flush_read<<<kBlocks, kThreads>>>(reinterpret_cast<const uint4*>(flush), flush_bytes / 16, reinterpret_cast<unsigned*>(flush));
        else flush_discard<<<kBlocks, kThreads>>>(flush, flush_bytes / 128);
      }
    }
    check(cudaDeviceSynchronize(), "flush");
    if (flush_ctx) {
      CUcontext popped = nullptr;
      cuCtxPopCurrent(&popped);
      if (touch) check(cudaMemsetAsync(sink, 0, sizeof(unsigned)), "cudaMemsetAsync");
    }
  };
  if (repeat == 0) {
    flush_l2();
    transpose_naive<<<grid, block>>>(out, in, kN);
    check(cudaDeviceSynchronize(), "transpose_naive");
  } else {   // the transpose timed by the program's own events, each after the flush asked
    cudaEvent_t started, ended;
    check(cudaEventCreate(&started), "cudaEventCreate");
    check(cudaEventCreate(&ended), "cudaEventCreate");
    std::vector<float> us;
    for (int r = 0; r < repeat; ++r) {
      flush_l2();
      check(cudaEventRecord(started), "cudaEventRecord");
      transpose_naive<<<grid, block>>>(out, in, kN);
      check(cudaEventRecord(ended), "cudaEventRecord");
      check(cudaEventSynchronize(ended), "transpose_naive");
      float ms = 0;
      check(cudaEventElapsedTime(&ms, started, ended), "cudaEventElapsedTime");
      us.push_back(ms * 1000.f);
    }
    std::sort(us.begin(), us.end());
    std::printf("transpose_naive: median %.1f us, %.1f to %.1f, %d runs (the program's events)\n", us[us.size() / 2],
                us.front(), us.back(), repeat);
  }
  check(cudaMemcpy(host.data(), out, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy");
  return 0;
}
