#pragma once
// LockedMemory<T>: two kinds of page-locked host memory beside common/host_memory.h's, from
// 004_12112d3317679e06.txt:
//   Registered     malloc, every page written, then cudaHostRegister: memory allocated « auf
//                  konventionelle Weise » and protected against paging afterwards (the runtime
//                  locks every page the range touches; the pointer need not be page-aligned);
//                  cudaHostUnregister, then free.
//   WriteCombined  cudaHostAlloc(..., cudaHostAllocWriteCombined): pinned memory that the CPU
//                  maps write-combining: its stores are gathered into whole lines on their way
//                  to memory, its loads bypass the caches.
// And touch_pages: one store per page, which makes the operating system give a fresh
// allocation its physical pages.
#include <unistd.h>

#include <cstddef>
#include <cstdio>
#include <cstdlib>

#include "cuda_check.h"

namespace labbook::lab {

/// The host's page size (4 KiB on x86-64 Linux).
inline std::size_t page_bytes() {
  static const std::size_t bytes = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  return bytes;
}

/// One store per page of [p, p + bytes): the first touch, on which the operating system maps
/// a zeroed physical page behind each virtual one. The stores are volatile so that the
/// compiler keeps them even when the memory is freed right after.
inline void touch_pages(void* p, std::size_t bytes) {
  volatile char* c = static_cast<volatile char*>(p);
  for (std::size_t i = 0; i < bytes; i += page_bytes()) c[i] = 1;
  if (bytes) c[bytes - 1] = 1;   // the last page, when p does not start a page
}

/// malloc that exits the lab when the system has no memory left.
inline void* checked_malloc(std::size_t bytes) {
  void* p = std::malloc(bytes);
  if (!p) {
    std::fprintf(stderr, "malloc of %zu bytes failed\n", bytes);
    std::exit(1);
  }
  return p;
}

enum class LockedKind { Registered, WriteCombined };

template <typename T>
class LockedMemory {
 public:
  LockedMemory(LockedKind kind, std::size_t count) : kind_(kind), count_(count) {
    if (kind == LockedKind::Registered) {
      data_ = static_cast<T*>(checked_malloc(bytes()));
      touch_pages(data_, bytes());
      CUDA_CHECK(cudaHostRegister(data_, bytes(), cudaHostRegisterDefault));
    } else {
      CUDA_CHECK(cudaHostAlloc(reinterpret_cast<void**>(&data_), bytes(), cudaHostAllocWriteCombined));
    }
  }
  ~LockedMemory() {
    if (kind_ == LockedKind::Registered) {
      cudaHostUnregister(data_);
      std::free(data_);
    } else {
      cudaFreeHost(data_);
    }
  }
  LockedMemory(const LockedMemory&) = delete;
  LockedMemory& operator=(const LockedMemory&) = delete;

  T* get() const { return data_; }
  T& operator[](std::size_t i) const { return data_[i]; }
  std::size_t size() const { return count_; }
  std::size_t bytes() const { return count_ * sizeof(T); }

 private:
  LockedKind kind_;
  std::size_t count_;
  T* data_ = nullptr;
};

}  // namespace labbook::lab
