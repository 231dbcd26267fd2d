#pragma once
// The add_constants check (lab 4): k inputs of n floats drawn one after the other; output k is
// input k + constants[k], the outputs one after the other.
#include "exercise_check_basics.h"
#include "random_data.h"

namespace labbook::lab {

/// The add_constants inputs drawn from `seed`, as the harness draws them: one per constant.
inline std::vector<std::vector<float>> add_constants_inputs(std::uint64_t seed, std::uint64_t n, std::size_t inputs) {
  std::vector<std::vector<float>> in(inputs, std::vector<float>(n));
  RandomFloats rng(seed);
  for (auto& v : in) rng.fill(v);
  return in;
}

/// Why `out` (the outputs one after the other, named `names`) is not `in` + constants.
inline std::string check_add_constants(const std::vector<std::vector<float>>& in, std::uint64_t n,
                                       const std::vector<double>& constants, const std::vector<std::string>& names,
                                       const float* out, const Tolerance& tolerance) {
  for (std::size_t k = 0; k < constants.size(); ++k)
    for (std::uint64_t i = 0; i < n; ++i) {
      const double want = static_cast<double>(in[k][i]) + constants[k];
      const float got = out[k * n + i];
      if (!tolerance.accepts(got, want))
        return names.at(k) + "[" + std::to_string(i) + "] is " + describe_value(got) + ", expected " + describe_value(want);
    }
  return "";
}

/// Why `out` is not input + constants for the inputs drawn from `seed`.
inline std::string check_add_constants(std::uint64_t seed, std::uint64_t n, const std::vector<double>& constants,
                                       const std::vector<std::string>& names, const float* out,
                                       const Tolerance& tolerance) {
  return check_add_constants(add_constants_inputs(seed, n, constants.size()), n, constants, names, out, tolerance);
}

}  // namespace labbook::lab
