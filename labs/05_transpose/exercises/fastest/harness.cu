// The lab5-transpose harness: owns main, gives the student's transpose fresh random matrices
// (square and not, sizes that are not multiples of 32), checks every element and that the
// input is unchanged, and runs lab 5's tiled transpose on the same data for comparison, each
// call in its own NVTX range ("student/n=N", "reference/n=N"). Writes result.json.
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
#include "nvtx_range.h"
#include "random_data.h"
#include "transpose.cuh"

// The student's kernel (submission.cu).
__global__ void transpose(const float* in, float* out, unsigned nx, unsigned ny);

namespace {

void write_result(bool correct, const std::string& problem) {
  FILE* f = std::fopen("result.json", "w");
  if (!f) return;
  std::string text;
  for (char c : problem) text += c == '"' || c == '\\' ? std::string("\\") + c : std::string(1, c);
  std::fprintf(f, "{\"correct\": %s, \"problem\": \"%s\"}\n", correct ? "true" : "false", text.c_str());
  std::fclose(f);
}

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
  struct Size { unsigned nx, ny; };
  std::string problem;
  int call = 0;
  for (const Size s : {Size{1000, 777}, Size{2048 + 5, 2048 - 3}, Size{8192, 8192}}) {
    ++call;
    const std::size_t count = static_cast<std::size_t>(s.nx) * s.ny;
    std::vector<float> host(count);
    labbook::lab::RandomFloats(seed * 1000 + call).fill(host);
    labbook::lab::DeviceBuffer<float> in(count), out(count);
    in.upload(host);
    out.poison();
    const dim3 block(32, 8), grid((s.nx + 31) / 32, (s.ny + 31) / 32);
    const std::string name = "call " + std::to_string(call) + " (" + std::to_string(s.nx) + " x " + std::to_string(s.ny) + ")";
    const std::string size = s.nx == s.ny ? std::to_string(s.nx) : std::to_string(s.nx) + "x" + std::to_string(s.ny);
    {
      labbook::lab::NvtxPath range("student/n=" + size);
      transpose<<<grid, block>>>(in.get(), out.get(), s.nx, s.ny);
      cuda_ok(cudaGetLastError(), name);
      cuda_ok(cudaDeviceSynchronize(), name);
    }
    std::vector<float> got, input;
    out.download(got);
    in.download(input);
    for (std::size_t i = 0; i < count && problem.empty(); ++i) {
      const std::size_t x = i / s.ny, y = i % s.ny;   // out[x * ny + y] = in[y * nx + x]
      const float want = host[y * s.nx + x];
      char buf[200];
      if (std::memcmp(&input[i], &host[i], 4))
        std::snprintf(buf, sizeof buf, "%s: the input changed at element %zu", name.c_str(), i), problem = buf;
      else if (std::memcmp(&got[i], &want, 4))
        std::snprintf(buf, sizeof buf, "%s: out[%zu][%zu] is %g, expected %g", name.c_str(), x, y, got[i], want), problem = buf;
    }
    if (s.nx == s.ny) {   // lab 5's tiled kernel handles square matrices
      labbook::lab::NvtxPath range("reference/n=" + size);
      labbook::kernels::transposeTiled<true><<<grid, block>>>(in.get(), out.get(), s.nx, s.ny);
      cuda_ok(cudaDeviceSynchronize(), "the reference kernel");
    }
  }
  write_result(problem.empty(), problem);
  std::printf("%s\n", problem.empty() ? "correct" : problem.c_str());
  return problem.empty() ? 0 : 1;
}
