// Planted (lab2-pipeline): pinned_serial, plus 10 GiB of page-locked memory taken at the first
// allocation and kept for the whole run. RLIMIT_DATA (8 GiB) does not see it, since pinned
// memory is a shared mapping; the sandbox's resident-memory limit does: the run is stopped.
#include <cstddef>
#include <cstdint>
#include <cstring>

#include <cuda_runtime.h>

extern "C" void process_words(const std::uint32_t* in_device, std::uint32_t* out_device, std::size_t n, cudaStream_t stream);

std::uint32_t* host_alloc(std::size_t n) {
  static void* hoard = nullptr;
  if (!hoard && cudaMallocHost(&hoard, std::size_t{10} << 30) == cudaSuccess) std::memset(hoard, 1, std::size_t{10} << 30);
  std::uint32_t* p = nullptr;
  return cudaMallocHost(&p, n * sizeof(std::uint32_t)) == cudaSuccess ? p : nullptr;
}

void host_free(std::uint32_t* p) { cudaFreeHost(p); }

void run(const std::uint32_t* in, std::uint32_t* out, std::size_t n) {
  static std::uint32_t *in_device = nullptr, *out_device = nullptr;
  static std::size_t capacity = 0;
  const std::size_t bytes = n * sizeof(std::uint32_t);
  if (bytes > capacity) {
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
