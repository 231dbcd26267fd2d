// The lab4-soa harness: owns main, gives the student's add_points fresh random points at
// several sizes (odd ones too), checks every element, and runs lab 4's simpleMathSoA on the
// same data for comparison, each call in its own NVTX range ("student/n=N", "reference/n=N")
// so the collector measures them apart. Writes result.json: {"correct": ..., "problem": ...}.
//
//   harness [--seed S]     exit 0 right, 1 wrong, 2 usage, 3 CUDA error, 77 no GPU
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "arguments.h"
#include "cuda_check.h"
#include "device_buffer.h"
#include "global_memory.cuh"
#include "nvtx_range.h"
#include "random_data.h"

// The student's kernel (submission.cu).
__global__ void add_points(const float* x, const float* y, float* rx, float* ry, unsigned n);

namespace {

std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (static_cast<unsigned char>(c) < 0x20) out += ' ';
    else out += c;
  }
  return out + "\"";
}

void write_result(bool correct, const std::string& problem) {
  FILE* f = std::fopen("result.json", "w");
  if (!f) return;
  std::fprintf(f, "{\"correct\": %s, \"problem\": %s}\n", correct ? "true" : "false", json_string(problem).c_str());
  std::fclose(f);
}

/// Exits 3 with result.json saying which call failed, for a CUDA error (a crash, an
/// out-of-bounds access seen by the driver, a kernel stopped by the time limit).
void cuda_ok(cudaError_t e, const std::string& what) {
  if (e == cudaSuccess) return;
  const std::string problem = what + ": CUDA error: " + cudaGetErrorString(e);
  std::fprintf(stderr, "%s\n", problem.c_str());
  write_result(false, problem);
  std::exit(3);
}

}  // namespace

int main(int argc, char** argv) {
  std::uint64_t seed = 1;
  labbook::lab::Arguments args(argc, argv, "harness", "[--seed S]");
  while (args.next()) {
    if (args.flag() == "--seed") seed = args.number<std::uint64_t>(0, ~0ull);
    else args.fail("unknown argument '" + args.flag() + "'");
  }
  labbook::lab::require_gpu();
  std::string problem;
  int call = 0;
  for (unsigned n : {1000003u, 4194304u + 17u, 4194304u}) {
    ++call;
    std::vector<float> x(n), y(n);
    labbook::lab::RandomFloats rng(seed * 1000 + call);
    rng.fill(x);
    rng.fill(y);
    // Fresh buffers every call, outputs poisoned: nothing of an earlier call can pass.
    labbook::lab::DeviceBuffer<float> dx(n), dy(n), rx(n), ry(n);
    dx.upload(x);
    dy.upload(y);
    rx.poison();
    ry.poison();
    const unsigned block = 256, grid = (n + block - 1) / block;
    {
      labbook::lab::NvtxPath range("student/n=" + std::to_string(n));
      add_points<<<grid, block>>>(dx.get(), dy.get(), rx.get(), ry.get(), n);
      cuda_ok(cudaGetLastError(), "call " + std::to_string(call) + " (n = " + std::to_string(n) + ")");
      cuda_ok(cudaDeviceSynchronize(), "call " + std::to_string(call) + " (n = " + std::to_string(n) + ")");
    }
    std::vector<float> gx, gy, ix, iy;
    rx.download(gx);
    ry.download(gy);
    dx.download(ix);
    dy.download(iy);
    for (unsigned i = 0; i < n && problem.empty(); ++i) {
      char buf[200];
      if (std::memcmp(&ix[i], &x[i], 4) || std::memcmp(&iy[i], &y[i], 4))
        std::snprintf(buf, sizeof buf, "call %d (n = %u): the input changed at element %u", call, n, i), problem = buf;
      else if (gx[i] != x[i] + 10.f || gy[i] != y[i] + 20.f)
        std::snprintf(buf, sizeof buf, "call %d (n = %u): element %u is (%g, %g), expected (%g, %g)", call, n, i, gx[i], gy[i],
                      x[i] + 10.f, y[i] + 20.f), problem = buf;
    }
    {
      labbook::lab::NvtxPath range("reference/n=" + std::to_string(n));
      labbook::kernels::simpleMathSoA<<<grid, block>>>(labbook::kernels::innerArray{dx.get(), dy.get()},
                                                      labbook::kernels::innerArray{rx.get(), ry.get()}, n);
      cuda_ok(cudaDeviceSynchronize(), "the reference kernel");
    }
  }
  write_result(problem.empty(), problem);
  std::printf("%s\n", problem.empty() ? "correct" : problem.c_str());
  return problem.empty() ? 0 : 1;
}
