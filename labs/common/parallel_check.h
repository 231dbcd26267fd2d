#pragma once
// Checks a large result on every CPU core: a lab compares millions of elements with its
// host reference after each experiment, and one core made the check slower than the GPU work.
#include <algorithm>
#include <cstddef>
#include <thread>
#include <vector>

namespace labbook::lab {

/// The smallest i in [0, n) with ok(i) false, or n when every element is right.
/// `ok` must be safe to call from several threads at once.
template <typename Ok>
std::size_t first_wrong(std::size_t n, const Ok& ok) {
  const std::size_t workers = std::max(1u, std::thread::hardware_concurrency());
  const std::size_t chunk = (n + workers - 1) / workers;
  std::vector<std::size_t> first(workers, n);
  std::vector<std::thread> threads;
  for (std::size_t w = 0; w < workers; ++w)
    threads.emplace_back([&, w] {
      const std::size_t end = std::min(n, (w + 1) * chunk);
      for (std::size_t i = w * chunk; i < end; ++i)
        if (!ok(i)) {
          first[w] = i;
          return;
        }
    });
  for (auto& t : threads) t.join();
  return *std::min_element(first.begin(), first.end());
}

}  // namespace labbook::lab
