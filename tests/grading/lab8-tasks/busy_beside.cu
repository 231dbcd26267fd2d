// Planted (lab8-tasks), a cheat: the starter's one stream for the tasks, and beside it, on a
// stream of its own, process_words run over and over on a scratch array for as long as the tasks
// take, so that every copy has a kernel beside it. The audit finds more of the work kernel than
// the reference ran for the same words.
#include <cstddef>
#include <cstdint>

#include <cuda_runtime.h>

extern "C" void process_words(const std::uint32_t* in_device, std::uint32_t* out_device, std::size_t n, cudaStream_t stream);

void run_tasks(const std::uint32_t* const* in, std::uint32_t* const* out, std::size_t words, int count) {
  const std::size_t bytes = words * sizeof(std::uint32_t);
  static std::uint32_t *in_device = nullptr, *out_device = nullptr, *scratch = nullptr;
  static std::size_t capacity = 0;
  static cudaStream_t busy = nullptr;
  if (!busy) cudaStreamCreateWithFlags(&busy, cudaStreamNonBlocking);
  if (words > capacity) {
    cudaFree(in_device);
    cudaFree(out_device);
    cudaFree(scratch);
    cudaMalloc(&in_device, bytes);
    cudaMalloc(&out_device, bytes);
    cudaMalloc(&scratch, 2 * bytes);
    capacity = words;
  }
  // Filler: as many kernels as the tasks have copies, beside them.
  for (int t = 0; t < 2 * count; ++t) process_words(scratch, scratch + words, words, busy);
  for (int t = 0; t < count; ++t) {
    cudaMemcpyAsync(in_device, in[t], bytes, cudaMemcpyHostToDevice, 0);
    process_words(in_device, out_device, words, 0);
    cudaMemcpyAsync(out[t], out_device, bytes, cudaMemcpyDeviceToHost, 0);
  }
  cudaStreamSynchronize(0);
  cudaStreamSynchronize(busy);
}
