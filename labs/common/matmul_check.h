#pragma once
// The matmul check (lab 6): A (m x k) then B (k x n), row-major floats uniform in [-1, 1); out
// is C = A B, each element within absolute + relative x the sum of its terms' magnitudes.
#include "exercise_check_basics.h"
#include "random_data.h"

namespace labbook::lab {

/// A matmul call's inputs: A (m rows of k floats), then B (k rows of n floats), row-major.
struct MatmulInputs {
  std::vector<float> a, b;
};

/// The matmul inputs drawn from `seed`, as the harness draws them: A's m x k floats, then B's
/// k x n, one after the other from the same generator, uniform in [-1, 1).
inline MatmulInputs matmul_inputs(std::uint64_t seed, std::uint64_t m, std::uint64_t k, std::uint64_t n) {
  MatmulInputs inputs{std::vector<float>(m * k), std::vector<float>(k * n)};
  RandomFloats rng(seed);
  rng.fill(inputs.a);
  rng.fill(inputs.b);
  return inputs;
}

/// Why `out` (m rows of n floats) is not C = A B ("" when it is). Each element is compared with
/// the double-precision product within absolute + relative x (the sum over e of
/// |A[i][e] x B[e][j]|), not relative x |C[i][j]|: the terms of a random product cancel, so
/// |C[i][j]| can be near 0 while float rounding, in whatever order the additions run, grows
/// with the terms' magnitudes (at most a few 1e-7 of them in these sizes; tf32 or half inputs
/// err 1e-5 to 1e-3 of them). Row by row, row i of C += A[i][e] x row e of B: unit stride.
inline std::string check_matmul(const MatmulInputs& in, std::uint64_t m, std::uint64_t k, std::uint64_t n,
                                const float* out, const Tolerance& tolerance) {
  std::vector<double> want(n), scale(n);
  for (std::uint64_t i = 0; i < m; ++i) {
    want.assign(n, 0.0);
    scale.assign(n, 0.0);
    double* __restrict__ w = want.data();
    double* __restrict__ s = scale.data();
    for (std::uint64_t e = 0; e < k; ++e) {
      const double a = in.a[i * k + e], size = std::fabs(a);
      const float* __restrict__ b = &in.b[e * n];
      for (std::uint64_t j = 0; j < n; ++j) {
        w[j] += a * b[j];
        s[j] += size * std::fabs(b[j]);
      }
    }
    for (std::uint64_t j = 0; j < n; ++j) {
      const float got = out[i * n + j];
      const double allowed = tolerance.absolute + tolerance.relative * s[j];
      if (std::isfinite(got) && std::fabs(got - w[j]) <= allowed) continue;
      return "C[" + std::to_string(i) + "][" + std::to_string(j) + "] is " + describe_value(got) + ", expected " +
             describe_value(w[j]) + (allowed > 0 ? " (off by at most " + describe_value(allowed) + ")" : "");
    }
  }
  return "";
}

/// Why `out` is not the product of the matrices drawn from `seed`, of shape [m, k, n].
inline std::string check_matmul(std::uint64_t seed, std::uint64_t m, std::uint64_t k, std::uint64_t n, const float* out,
                                const Tolerance& tolerance) {
  return check_matmul(matmul_inputs(seed, m, k, n), m, k, n, out, tolerance);
}

}  // namespace labbook::lab
