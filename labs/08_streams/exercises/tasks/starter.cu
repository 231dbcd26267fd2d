// Lab 8 exercise: a list of tasks, each copied to the GPU, processed and copied back. Write
// host code only: run_tasks, keeping its signature. Write nothing that runs by itself (no main,
// no global objects), open no files, start no threads or processes.
//
// Task t's input is in[t][0 .. words - 1] and its output out[t][0 .. words - 1], page-locked
// host memory the harness allocated. When run_tasks returns, out[t][i] must be
// process(in[t][i]) for every task and word, computed on the GPU by the harness's
// process_words, which works on device memory on the stream you give it and returns at once
// (it is asynchronous, like a kernel launch). Every task's input must go to the GPU and its
// output come back from it.
//
// This starter works and is slow: every task on one stream. See instructions.md.
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
