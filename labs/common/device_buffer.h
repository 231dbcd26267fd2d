#pragma once
// DeviceBuffer<T>: cudaMalloc'd memory owned by a scope, with host copies both ways.
#include <cstddef>
#include <vector>

#include "cuda_check.h"

namespace labbook::lab {

template <typename T>
class DeviceBuffer {
 public:
  explicit DeviceBuffer(std::size_t count) : count_(count) {
    CUDA_CHECK(cudaMalloc(&data_, count * sizeof(T)));
  }
  ~DeviceBuffer() { cudaFree(data_); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  T* get() const { return data_; }
  std::size_t size() const { return count_; }
  void upload(const std::vector<T>& host) {
    CUDA_CHECK(cudaMemcpy(data_, host.data(), count_ * sizeof(T), cudaMemcpyHostToDevice));
  }
  /// Copies into `host`, reusing its memory (a fresh 64 MB vector per call costs more
  /// in page faults than the copy itself).
  void download(std::vector<T>& host) const {
    host.resize(count_);
    CUDA_CHECK(cudaMemcpy(host.data(), data_, count_ * sizeof(T), cudaMemcpyDeviceToHost));
  }
  /// Copies into `count` elements at `host` (pinned memory: the DMA engines write it directly,
  /// several times faster than a pageable vector).
  void download(T* host) const { CUDA_CHECK(cudaMemcpy(host, data_, count_ * sizeof(T), cudaMemcpyDeviceToHost)); }
  /// Fills every byte with 0xFF: a NaN pattern that shows which elements a kernel wrote.
  void poison() { CUDA_CHECK(cudaMemset(data_, 0xFF, count_ * sizeof(T))); }

 private:
  T* data_ = nullptr;
  std::size_t count_;
};

}  // namespace labbook::lab
