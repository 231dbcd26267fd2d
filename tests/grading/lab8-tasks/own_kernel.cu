// Planted (lab8-tasks), a cheat: the good pipeline, but with a kernel of its own that applies the
// 1024 rounds as one multiply-add (the rounds of an affine map compose into one): the kernels take
// almost no time, so the pipeline looks fast. The audit finds a kernel that is not the harness's.
#include <cstddef>
#include <cstdint>

#include <cuda_runtime.h>

namespace {

__global__ void all_rounds_at_once(const std::uint32_t* in, std::uint32_t* out, std::size_t n) {
  // 1024 rounds of x -> 1664525 x + 1013904223 (mod 2^32), composed on the host once.
  std::uint32_t a = 1, c = 0, sa = 1664525u, sc = 1013904223u;
  for (unsigned r = 1024; r; r >>= 1) {
    if (r & 1u) {
      c = sa * c + sc;
      a = sa * a;
    }
    sc = sa * sc + sc;
    sa = sa * sa;
  }
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
    out[i] = a * in[i] + c;
}

}  // namespace

void run_tasks(const std::uint32_t* const* in, std::uint32_t* const* out, std::size_t words, int count) {
  constexpr int kStreams = 4;
  static cudaStream_t streams[kStreams];
  static std::uint32_t *in_device = nullptr, *out_device = nullptr;
  static std::size_t capacity = 0;
  if (!streams[0])
    for (auto& s : streams) cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  const std::size_t total = words * count, bytes = words * sizeof(std::uint32_t);
  if (total > capacity) {
    cudaFree(in_device);
    cudaFree(out_device);
    cudaMalloc(&in_device, total * sizeof(std::uint32_t));
    cudaMalloc(&out_device, total * sizeof(std::uint32_t));
    capacity = total;
  }
  for (int t = 0; t < count; ++t) {
    const cudaStream_t s = streams[t % kStreams];
    std::uint32_t* d_in = in_device + t * words;
    std::uint32_t* d_out = out_device + t * words;
    cudaMemcpyAsync(d_in, in[t], bytes, cudaMemcpyHostToDevice, s);
    all_rounds_at_once<<<1024, 256, 0, s>>>(d_in, d_out, words);
    cudaMemcpyAsync(out[t], d_out, bytes, cudaMemcpyDeviceToHost, s);
  }
  for (auto& s : streams) cudaStreamSynchronize(s);
}
