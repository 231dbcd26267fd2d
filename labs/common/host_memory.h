#pragma once
// HostMemory<T>: host memory of one of the kinds the lab compares, owned by a scope.
//   Pageable  new[]: the operating system may move it; the driver stages copies through a
//             pinned buffer of its own.
//   Pinned    cudaMallocHost: page-locked, the GPU's DMA engines read it directly.
//   Mapped    cudaHostAlloc(cudaHostAllocMapped): pinned and in the GPU's address space
//             (zero-copy); with UVA the host pointer is also the device pointer.
//   Managed   cudaMallocManaged: one pointer, pages migrate to whoever touches them.
//   Registered     new[], then cudaHostRegister: ordinary memory page-locked afterwards
//                  (004: « auf konventionelle Weise belegten Speicher ... nachträglich gegen
//                  Auslagerung zu schützen »).
//   WriteCombined  cudaHostAlloc(cudaHostAllocWriteCombined): pinned memory the CPU maps
//                  write-combining: its stores leave in whole lines, its loads bypass the caches.
// Every kind is touched once when made, so no measurement pays for first-touch page faults
// of the operating system (managed memory is touched on the host: its pages start there).
#include <cstddef>
#include <cstring>

#include "cuda_check.h"

namespace labbook::lab {

enum class HostKind { Pageable, Pinned, Mapped, Managed, Registered, WriteCombined };

inline const char* host_kind_name(HostKind k) {
  switch (k) {
    case HostKind::Pageable: return "pageable";
    case HostKind::Pinned: return "pinned";
    case HostKind::Mapped: return "mapped";
    case HostKind::Managed: return "managed";
    case HostKind::Registered: return "registered";
    case HostKind::WriteCombined: return "write_combined";
  }
  return "?";
}

template <typename T>
class HostMemory {
 public:
  HostMemory(HostKind kind, std::size_t count) : kind_(kind), count_(count) {
    const std::size_t bytes = count * sizeof(T);
    switch (kind) {
      case HostKind::Pageable: data_ = new T[count]; break;
      case HostKind::Pinned: CUDA_CHECK(cudaMallocHost(&data_, bytes)); break;
      case HostKind::Mapped: CUDA_CHECK(cudaHostAlloc(&data_, bytes, cudaHostAllocMapped)); break;
      case HostKind::Managed: CUDA_CHECK(cudaMallocManaged(&data_, bytes)); break;
      case HostKind::Registered: data_ = new T[count]; break;
      case HostKind::WriteCombined: CUDA_CHECK(cudaHostAlloc(&data_, bytes, cudaHostAllocWriteCombined)); break;
    }
    std::memset(static_cast<void*>(data_), 0, bytes);
    // Registered after the first touch: the pages exist, and the driver locks them.
    if (kind == HostKind::Registered) CUDA_CHECK(cudaHostRegister(data_, bytes, cudaHostRegisterDefault));
  }
  ~HostMemory() {
    switch (kind_) {
      case HostKind::Pageable: delete[] data_; break;
      case HostKind::Registered:
        cudaHostUnregister(data_);
        delete[] data_;
        break;
      case HostKind::Pinned:
      case HostKind::Mapped:
      case HostKind::WriteCombined: cudaFreeHost(data_); break;
      case HostKind::Managed: cudaFree(data_); break;
    }
  }
  HostMemory(const HostMemory&) = delete;
  HostMemory& operator=(const HostMemory&) = delete;

  T* get() const { return data_; }
  T& operator[](std::size_t i) const { return data_[i]; }
  std::size_t size() const { return count_; }
  std::size_t bytes() const { return count_ * sizeof(T); }
  HostKind kind() const { return kind_; }
  /// The pointer a kernel uses for mapped memory (cudaHostGetDevicePointer, as the sources
  /// do; with UVA it equals get()).
  T* device_pointer() const {
    T* p = nullptr;
    CUDA_CHECK(cudaHostGetDevicePointer(reinterpret_cast<void**>(&p), data_, 0));
    return p;
  }

 private:
  HostKind kind_;
  std::size_t count_;
  T* data_ = nullptr;
};

}  // namespace labbook::lab
