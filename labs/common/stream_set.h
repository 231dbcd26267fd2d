#pragma once
// Streams owned by a scope: made together, destroyed with it.
#include <cstddef>
#include <vector>

#include <cuda_runtime.h>

#include "cuda_check.h"

namespace labbook::lab {

/// `count` streams created with `flags`, destroyed with the scope.
class Streams {
 public:
  explicit Streams(unsigned count, unsigned flags = cudaStreamDefault) : streams_(count) {
    for (auto& s : streams_) CUDA_CHECK(cudaStreamCreateWithFlags(&s, flags));
  }
  ~Streams() {
    for (auto s : streams_) cudaStreamDestroy(s);
  }
  Streams(const Streams&) = delete;
  Streams& operator=(const Streams&) = delete;

  cudaStream_t operator[](std::size_t i) const { return streams_[i]; }
  std::size_t size() const { return streams_.size(); }

 private:
  std::vector<cudaStream_t> streams_;
};

}  // namespace labbook::lab
