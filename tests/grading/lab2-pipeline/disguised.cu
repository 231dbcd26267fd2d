// Planted (lab2-pipeline), the lab's cheat: the chunked pipeline of four streams and
// cudaMemcpyAsync, but over pageable arrays (new[]): every copy is staged by the driver, and
// the trace says so whatever the code looks like.
#include <cstddef>
#include <cstdint>

#include <cuda_runtime.h>

extern "C" void process_words(const std::uint32_t* in_device, std::uint32_t* out_device, std::size_t n, cudaStream_t stream);

std::uint32_t* host_alloc(std::size_t n) { return new std::uint32_t[n]; }

void host_free(std::uint32_t* p) { delete[] p; }

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
    process_words(in_device + first, out_device + first, count, s);
    cudaMemcpyAsync(out + first, out_device + first, count * sizeof(std::uint32_t), cudaMemcpyDeviceToHost, s);
  }
  for (auto& s : streams) cudaStreamSynchronize(s);
}
