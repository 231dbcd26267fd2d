#pragma once
// How an exercise call's output is checked, shared by the harness (which prints its own verdict
// for a student running it alone) and by `labbook grade`, which checks the output bytes the
// harness sends it in a process no student code ever ran in, against inputs it draws again
// from the call's seed. Host code only, no CUDA: the inputs come from random_data.h alone.
//
//   transpose      one input of ny rows of nx floats; out[x * ny + y] = in[y * nx + x]
//   add_constants  k inputs of n floats drawn one after the other from the same generator;
//                  output k is input k + constants[k], the outputs one after the other
//   local_array    n words, then n starts (0 to 31), from the same generator; out[i] is lab 1's
//                  local_array_result(in[i], start[i]) (kernels/memory_spaces_indexing.h, host
//                  code too), a word sent as the records' 4-byte element, compared bit for bit
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "../../kernels/memory_spaces_indexing.h"   // relative: labbook has no kernels/ on its path
#include "random_data.h"

namespace labbook::lab {

/// The version of the records the harness sends labbook (grading/harness_records.h): both
/// sides take it from here.
constexpr int kHarnessProtocol = 2;

/// How far a result may be from the double-precision reference: |got - want| <= absolute +
/// relative * |want|. NaN and infinities never pass (the poison is NaN).
struct Tolerance {
  double absolute = 0, relative = 0;
  bool accepts(double got, double want) const {
    return std::isfinite(got) && std::fabs(got - want) <= absolute + relative * std::fabs(want);
  }
};

/// "0.123456791" or, for an element still holding the poison, what that means.
inline std::string describe_value(float v) {
  std::uint32_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  if (bits == 0xFFFFFFFFu) return "never written (it still holds the poison the harness filled it with)";
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

inline std::string describe_value(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

/// The name a call goes by in the feedback: "call 3 (8192 x 8192)" or "call 1 (n = 1000003)".
inline std::string call_name(int index, const std::vector<std::uint64_t>& shape) {
  std::string name = "call " + std::to_string(index) + " (";
  if (shape.size() == 1) return name + "n = " + std::to_string(shape[0]) + ")";
  for (std::size_t i = 0; i < shape.size(); ++i) name += (i ? " x " : "") + std::to_string(shape[i]);
  return name + ")";
}

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

/// The local_array inputs: each thread's word and the start of its rotation.
struct LocalArrayInputs {
  std::vector<std::uint32_t> in, start;
};

/// The local_array inputs drawn from `seed`, as the harness draws them.
inline LocalArrayInputs local_array_inputs(std::uint64_t seed, std::uint64_t n) {
  LocalArrayInputs inputs{std::vector<std::uint32_t>(n), std::vector<std::uint32_t>(n)};
  RandomWords rng(seed);
  for (auto& v : inputs.in) v = rng.next();
  for (auto& v : inputs.start) v = rng.next() % kernels::kLocalArray;
  return inputs;
}

/// Why `out` (n words, each in a 4-byte element of the records) is not lab 1's local-array
/// result of `inputs` ("" when it is). Integers: exact, whatever the rubric's tolerance.
inline std::string check_local_array(const LocalArrayInputs& inputs, std::uint64_t n, const float* out) {
  for (std::uint64_t i = 0; i < n; ++i) {
    std::uint32_t got;
    std::memcpy(&got, &out[i], sizeof got);
    const std::uint32_t want = kernels::local_array_result(inputs.in[i], inputs.start[i]);
    if (got == want) continue;
    const std::string index = "[" + std::to_string(i) + "]";
    return "out" + index + " is " + (got == 0xFFFFFFFFu ? describe_value(out[i]) : std::to_string(got)) + ", expected " +
           std::to_string(want) + " (in" + index + " = " + std::to_string(inputs.in[i]) + ", start" + index + " = " +
           std::to_string(inputs.start[i]) + ")";
  }
  return "";
}

/// Why `out` is not the local-array result of the inputs drawn from `seed`.
inline std::string check_local_array(std::uint64_t seed, std::uint64_t n, const float* out) {
  return check_local_array(local_array_inputs(seed, n), n, out);
}

}  // namespace labbook::lab
