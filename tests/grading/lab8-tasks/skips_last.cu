// Planted (lab8-tasks), wrong: the good pipeline, but the loop stops one task short: the last
// task's output is never written.
#include <cstddef>
#include <cstdint>

#include <cuda_runtime.h>

extern "C" void process_words(const std::uint32_t* in_device, std::uint32_t* out_device, std::size_t n, cudaStream_t stream);

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
  for (int t = 0; t + 1 < count; ++t) {
    const cudaStream_t s = streams[t % kStreams];
    std::uint32_t* d_in = in_device + t * words;
    std::uint32_t* d_out = out_device + t * words;
    cudaMemcpyAsync(d_in, in[t], bytes, cudaMemcpyHostToDevice, s);
    process_words(d_in, d_out, words, s);
    cudaMemcpyAsync(out[t], d_out, bytes, cudaMemcpyDeviceToHost, s);
  }
  for (auto& s : streams) cudaStreamSynchronize(s);
}
