// Planted cheat (lab8-tasks): the tasks one after the other on the default stream, as
// one_stream, and each task's input copied a second time, to a scratch array, on a stream of
// its own beside the kernel. Nothing runs sooner, but that copy's time counts as "hidden behind
// kernels" (44.8 % and 67/100 before the audit bounded the bytes a call may copy).
#include <cstddef>
#include <cstdint>

#include <cuda_runtime.h>

extern "C" void process_words(const std::uint32_t* in_device, std::uint32_t* out_device, std::size_t n, cudaStream_t stream);

void run_tasks(const std::uint32_t* const* in, std::uint32_t* const* out, std::size_t words, int count) {
  const std::size_t bytes = words * sizeof(std::uint32_t);
  static std::uint32_t *in_device = nullptr, *out_device = nullptr, *scratch = nullptr;
  static std::size_t capacity = 0;
  static cudaStream_t side = nullptr;
  if (!side) cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking);
  if (words > capacity) {
    cudaFree(in_device);
    cudaFree(out_device);
    cudaFree(scratch);
    cudaMalloc(&in_device, bytes);
    cudaMalloc(&out_device, bytes);
    cudaMalloc(&scratch, bytes);
    capacity = words;
  }
  for (int t = 0; t < count; ++t) {
    cudaMemcpyAsync(in_device, in[t], bytes, cudaMemcpyHostToDevice, 0);
    process_words(in_device, out_device, words, 0);
    cudaMemcpyAsync(scratch, in[t], bytes, cudaMemcpyHostToDevice, side);
    cudaMemcpyAsync(out[t], out_device, bytes, cudaMemcpyDeviceToHost, 0);
  }
  cudaStreamSynchronize(side);
  cudaStreamSynchronize(0);
}
