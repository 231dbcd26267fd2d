#pragma once
// The stencil5 check (lab 7): one input of height rows of width pixels, whole numbers 0 to 255;
// out[y][x] = c0 * in[y][x] + c1 * (left + right + up + down), clamped at the border.
#include "../../kernels/layouts_indexing.h"   // relative: labbook has no kernels/ on its path
#include "exercise_check_basics.h"
#include "random_data.h"

namespace labbook::lab {

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

}  // namespace labbook::lab
