#pragma once
// The host's reference product C = A B of small integers, exact in 32-bit integers, on
// every CPU core (a 4096^3 product is 7e10 multiply-adds: minutes on one core).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <thread>
#include <vector>

namespace labbook::lab {

/// c[0, n) += a x b[0, n): unit stride and no aliasing, so the compiler vectorizes it.
inline void add_scaled_row(std::int32_t* __restrict__ c, const std::int32_t* __restrict__ b, std::int32_t a, int n) {
  for (int col = 0; col < n; ++col) c[col] += a * b[col];
}

/// C (m x n) = A (m x k) B (k x n), all stored by rows.
inline std::vector<std::int32_t> host_product(const std::vector<std::int32_t>& A, const std::vector<std::int32_t>& B,
                                              int m, int n, int k) {
  std::vector<std::int32_t> C(static_cast<std::size_t>(m) * n, 0);
  const int workers = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  std::vector<std::thread> threads;
  for (int w = 0; w < workers; ++w)
    threads.emplace_back([&, w] {
      for (int row = w; row < m; row += workers) {
        for (int e = 0; e < k; ++e)   // row of C += A(row, e) x row e of B
          add_scaled_row(&C[static_cast<std::size_t>(row) * n], &B[static_cast<std::size_t>(e) * n],
                         A[static_cast<std::size_t>(row) * k + e], n);
      }
    });
  for (auto& t : threads) t.join();
  return C;
}

}  // namespace labbook::lab
