#pragma once
// The transpose check (labs 3 and 5): one input of ny rows of nx floats; out[x * ny + y] =
// in[y * nx + x].
#include "exercise_check_basics.h"
#include "random_data.h"

namespace labbook::lab {

/// The transpose's input drawn from `seed`, as the harness draws it.
inline std::vector<float> transpose_input(std::uint64_t seed, std::uint64_t nx, std::uint64_t ny) {
  std::vector<float> in(nx * ny);
  RandomFloats(seed).fill(in);
  return in;
}

/// Why `out` is not the transpose of `in`, ny rows of nx floats ("" when it is).
inline std::string check_transpose(const std::vector<float>& in, std::uint64_t nx, std::uint64_t ny, const float* out,
                                   const Tolerance& tolerance) {
  for (std::uint64_t i = 0; i < nx * ny; ++i) {
    const double want = in[(i % ny) * nx + i / ny];
    if (!tolerance.accepts(out[i], want))
      return "out[" + std::to_string(i / ny) + "][" + std::to_string(i % ny) + "] is " + describe_value(out[i]) +
             ", expected " + describe_value(static_cast<float>(want));
  }
  return "";
}

/// Why `out` is not the transpose of the input drawn from `seed`.
inline std::string check_transpose(std::uint64_t seed, std::uint64_t nx, std::uint64_t ny, const float* out,
                                   const Tolerance& tolerance) {
  return check_transpose(transpose_input(seed, nx, ny), nx, ny, out, tolerance);
}

}  // namespace labbook::lab
