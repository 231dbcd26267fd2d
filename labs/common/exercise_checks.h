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
//   stencil5       (lab 7) one input of height rows of width pixels, whole numbers 0 to 255;
//                  out[y][x] = c0 * in[y][x] + c1 * (left + right + up + down), a neighbour
//                  outside the image taking the value of the nearest pixel inside it (lab 7's
//                  clamped(), kernels/layouts_indexing.h); the output sent packed, row after
//                  row, without the padding of the harness's pitched rows
//   matmul         (lab 6) A (m x k) then B (k x n), row-major floats uniform in [-1, 1), from the
//                  same generator; out is C = A B (m x n), each element within absolute +
//                  relative x the sum of its terms' magnitudes of the double-precision product
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "../../kernels/memory_spaces_indexing.h"   // relative: labbook has no kernels/ on its path
#include "../../kernels/layouts_indexing.h"         // lab 7's stencil5 check (clamped, the neighbours)
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

// stencil5: lab 7's exercise (lab7-stencil).

/// The stencil5 input drawn from `seed`, as the harness draws it: `height` rows of `width`
/// pixels, whole numbers 0 to 255 as in lab 7's own stencil. With weights that are powers of
/// two (exercise.toml's 0.5 and 0.125) every result is then exact in float, whatever the order
/// of the additions and with or without fused multiply-adds: the check can be exact.
inline std::vector<float> stencil_input(std::uint64_t seed, std::uint64_t width, std::uint64_t height) {
  std::vector<float> in(width * height);
  RandomWords rng(seed);
  for (auto& v : in) v = static_cast<float>(rng.next() % 256);
  return in;
}

/// Pixel (x, y) of the stencil's result, in double: c0 * centre + c1 * (left + right + up +
/// down), each neighbour's coordinates clamped into the image as lab 7's kernels clamp them.
inline double stencil_result(const std::vector<float>& in, std::uint64_t width, std::uint64_t height, std::uint64_t x,
                             std::uint64_t y, double c0, double c1) {
  const auto pixel = [&](int point) -> double {
    const unsigned cx = kernels::clamped(static_cast<int>(x) + kernels::stencil_dx(point), static_cast<unsigned>(width));
    const unsigned cy = kernels::clamped(static_cast<int>(y) + kernels::stencil_dy(point), static_cast<unsigned>(height));
    return in[static_cast<std::uint64_t>(cy) * width + cx];
  };
  double neighbours = 0;
  for (int point = 1; point < kernels::kStencilPoints; ++point) neighbours += pixel(point);   // point 0 is the centre
  return c0 * pixel(0) + c1 * neighbours;
}

/// Why `out` (height rows of width floats, packed) is not the stencil of `in` ("" when it
/// is). The first wrong pixel, with what most often makes it wrong: a NaN that is not the
/// output's poison comes from the padding of the input's rows (the harness fills it with NaN),
/// read by a kernel that steps width * 4 bytes from row to row instead of the pitch, or that
/// reads past the last column without clamping; a wrong pixel on the border, from the rule
/// for the neighbours outside the image.
inline std::string check_stencil(const std::vector<float>& in, std::uint64_t width, std::uint64_t height, double c0,
                                 double c1, const float* out, const Tolerance& tolerance) {
  for (std::uint64_t y = 0; y < height; ++y)
    for (std::uint64_t x = 0; x < width; ++x) {
      const float got = out[y * width + x];
      const double want = stencil_result(in, width, height, x, y, c0, c1);
      if (tolerance.accepts(got, want)) continue;
      std::uint32_t bits;
      std::memcpy(&bits, &got, sizeof bits);
      std::string why = "out[" + std::to_string(y) + "][" + std::to_string(x) + "] is " + describe_value(got) +
                        ", expected " + describe_value(want);
      if (std::isnan(got) && bits != 0xFFFFFFFFu)
        why += " (a NaN your kernel computed: it read the padding at the end of an input row, which the harness "
               "fills with NaN; rows are pitch bytes apart, not width * 4, and the right neighbour of the last "
               "column is the last column itself)";
      else if (x == 0 || y == 0 || x + 1 == width || y + 1 == height)
        why += " (a pixel on the image's border: every pixel is written, and a neighbour outside the image takes the "
               "value of the nearest pixel inside it)";
      return why;
    }
  return "";
}

/// Why `out` is not the stencil of the input drawn from `seed`.
inline std::string check_stencil(std::uint64_t seed, std::uint64_t width, std::uint64_t height, double c0, double c1,
                                 const float* out, const Tolerance& tolerance) {
  return check_stencil(stencil_input(seed, width, height), width, height, c0, c1, out, tolerance);
}

// matmul: lab 6's exercise (lab6-tiled).

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
