// Planted (lab2-pipeline): page-locked arrays and device arrays allocated once, but one upload,
// the work and one download one after the other. (With the device arrays allocated in every call
// the H200 graded it 67.52 and 55.00 on the same run of the class: cudaMalloc's time varies
// more than the copies'.)
#include <cstddef>
#include <cstdint>

#include <cuda_runtime.h>

extern "C" void process_words(const std::uint32_t* in_device, std::uint32_t* out_device, std::size_t n, cudaStream_t stream);

std::uint32_t* host_alloc(std::size_t n) {
  std::uint32_t* p = nullptr;
  return cudaMallocHost(&p, n * sizeof(std::uint32_t)) == cudaSuccess ? p : nullptr;
}

void host_free(std::uint32_t* p) { cudaFreeHost(p); }

void run(const std::uint32_t* in, std::uint32_t* out, std::size_t n) {
  static std::uint32_t *in_device = nullptr, *out_device = nullptr;
  static std::size_t capacity = 0;
  const std::size_t bytes = n * sizeof(std::uint32_t);
  if (bytes > capacity) {   // the largest size so far; the harness calls with several
    cudaFree(in_device);
    cudaFree(out_device);
    cudaMalloc(&in_device, bytes);
    cudaMalloc(&out_device, bytes);
    capacity = bytes;
  }
  cudaMemcpy(in_device, in, bytes, cudaMemcpyHostToDevice);
  process_words(in_device, out_device, n, 0);
  cudaMemcpy(out, out_device, bytes, cudaMemcpyDeviceToHost);
}
