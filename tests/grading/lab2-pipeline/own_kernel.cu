// Planted (lab2-pipeline), a cheat: the good pipeline, but with a kernel of its own that applies the
// 16 rounds as one multiply-add (the rounds of an affine map compose into one), so that the
// kernels take almost no time beside the copies. The audit finds a kernel that is not the harness's.
#include <cstddef>
#include <cstdint>

#include <cuda_runtime.h>

namespace {

__global__ void all_rounds_at_once(const std::uint32_t* in, std::uint32_t* out, std::size_t n) {
  // 16 rounds of x -> 1664525 x + 1013904223 (mod 2^32), composed in each thread.
  std::uint32_t a = 1, c = 0;
  for (int r = 0; r < 16; ++r) {
    a = 1664525u * a;
    c = 1664525u * c + 1013904223u;
  }
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
    out[i] = a * in[i] + c;
}

}  // namespace

std::uint32_t* host_alloc(std::size_t n) {
  std::uint32_t* p = nullptr;
  return cudaMallocHost(&p, n * sizeof(std::uint32_t)) == cudaSuccess ? p : nullptr;
}

void host_free(std::uint32_t* p) { cudaFreeHost(p); }

void run(const std::uint32_t* in, std::uint32_t* out, std::size_t n) {
  constexpr int kStreams = 4, kChunks = 8;
  static cudaStream_t streams[kStreams];
  static std::uint32_t *in_device = nullptr, *out_device = nullptr;
  static std::size_t capacity = 0;
  if (!streams[0])
    for (auto& s : streams) cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  if (n > capacity) {
    cudaFree(in_device);
    cudaFree(out_device);
    cudaMalloc(&in_device, n * sizeof(std::uint32_t));
    cudaMalloc(&out_device, n * sizeof(std::uint32_t));
    capacity = n;
  }
  const std::size_t chunk = (n + kChunks - 1) / kChunks;
  for (int c = 0; c < kChunks; ++c) {
    const std::size_t first = c * chunk;
    if (first >= n) break;
    const std::size_t count = first + chunk <= n ? chunk : n - first;
    const cudaStream_t s = streams[c % kStreams];
    cudaMemcpyAsync(in_device + first, in + first, count * sizeof(std::uint32_t), cudaMemcpyHostToDevice, s);
    all_rounds_at_once<<<1024, 256, 0, s>>>(in_device + first, out_device + first, count);
    cudaMemcpyAsync(out + first, out_device + first, count * sizeof(std::uint32_t), cudaMemcpyDeviceToHost, s);
  }
  for (auto& s : streams) cudaStreamSynchronize(s);
}
