// Planted (lab8-tasks): the starter as handed out: every task on the legacy default stream, one
// after the other.
#include <cstddef>
#include <cstdint>

#include <cuda_runtime.h>

// The harness's: out_device[i] = process(in_device[i]) for i < n, asynchronously on `stream`.
extern "C" void process_words(const std::uint32_t* in_device, std::uint32_t* out_device, std::size_t n, cudaStream_t stream);

void run_tasks(const std::uint32_t* const* in, std::uint32_t* const* out, std::size_t words, int count) {
  const std::size_t bytes = words * sizeof(std::uint32_t);
  // Device arrays for one task, kept from call to call and grown when a call needs more.
  static std::uint32_t *in_device = nullptr, *out_device = nullptr;
  static std::size_t capacity = 0;
  if (words > capacity) {
    cudaFree(in_device);
    cudaFree(out_device);
    cudaMalloc(&in_device, bytes);
    cudaMalloc(&out_device, bytes);
    capacity = words;
  }
  for (int t = 0; t < count; ++t) {
    cudaMemcpyAsync(in_device, in[t], bytes, cudaMemcpyHostToDevice, 0);
    process_words(in_device, out_device, words, 0);
    cudaMemcpyAsync(out[t], out_device, bytes, cudaMemcpyDeviceToHost, 0);
  }
  cudaStreamSynchronize(0);
}
