// Lab 2 exercise: a round trip through the GPU as fast as the machine allows. Write host code
// only: host_alloc and host_free (the memory the harness puts your input in and you put your
// output in) and run (send the input to the GPU, have it processed, bring the output back).
// Keep the three signatures. Write nothing that runs by itself (no main, no global objects),
// open no files, start no threads or processes.
//
// The harness calls host_alloc twice before each call of run (for `in` and for `out`, n words
// each), fills `in` with fresh words and `out` with all bits set, times run (nothing else), then
// checks `out` and calls host_free on both. When run returns, out[i] must be process(in[i])
// for every i < n, computed on the GPU by the harness's process_words, which works on device
// memory on the stream you give it and returns at once (it is asynchronous, like a kernel
// launch). Every word of `in` must go to the GPU and every word of `out` come back from it.
//
// This starter works and is slow: see instructions.md for what to change.
#include <cstddef>
#include <cstdint>

#include <cuda_runtime.h>

// The harness's: out_device[i] = process(in_device[i]) for i < n, asynchronously on `stream`.
extern "C" void process_words(const std::uint32_t* in_device, std::uint32_t* out_device, std::size_t n, cudaStream_t stream);

std::uint32_t* host_alloc(std::size_t n) { return new std::uint32_t[n]; }

void host_free(std::uint32_t* p) { delete[] p; }

void run(const std::uint32_t* in, std::uint32_t* out, std::size_t n) {
  const std::size_t bytes = n * sizeof(std::uint32_t);
  std::uint32_t *in_device = nullptr, *out_device = nullptr;
  cudaMalloc(&in_device, bytes);
  cudaMalloc(&out_device, bytes);
  cudaMemcpy(in_device, in, bytes, cudaMemcpyHostToDevice);
  process_words(in_device, out_device, n, 0);
  cudaMemcpy(out, out_device, bytes, cudaMemcpyDeviceToHost);
  cudaFree(in_device);
  cudaFree(out_device);
}
