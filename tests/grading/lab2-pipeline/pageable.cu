// Planted (lab2-pipeline): the starter as handed out: pageable arrays (new[]), one
// cudaMemcpy each way, device arrays allocated in every call.
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
