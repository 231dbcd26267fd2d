#pragma once
// Time on the host's steady clock: how long a call took to return (an allocation, a CPU
// read, a CUDA call that may or may not wait for the GPU).
#include <chrono>

namespace labbook::lab {

/// Nanoseconds `call` took to return.
template <typename Call>
double host_ns(Call&& call) {
  const auto start = std::chrono::steady_clock::now();
  call();
  return std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace labbook::lab
