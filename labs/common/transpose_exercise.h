#pragma once
// The calls of a transpose exercise (lab 3's tile, lab 5's fastest transpose): a fresh random
// matrix, a poisoned output, the call timed by the harness, then the input compared with its
// private copy and every element of the output checked. And lab 5's tiled kernel as the
// reference, set up exactly like a student's call so that both start with L2 alike.
#include <cstddef>
#include <string>
#include <vector>

#include "device_buffer.h"
#include "exercise_harness.h"
#include "random_data.h"
#include "transpose.cuh"

namespace labbook::lab {

inline std::string transpose_size_name(unsigned nx, unsigned ny) {
  return nx == ny ? std::to_string(nx) : std::to_string(nx) + "x" + std::to_string(ny);
}

/// One call of the student's code, `run(in, out, nx, ny)`, on a fresh nx x ny matrix (ny
/// rows of nx floats); its result must be out[x * ny + y] = in[y * nx + x].
template <class Run>
void student_transpose_call(ExerciseHarness& h, const std::string& range, unsigned nx, unsigned ny, Run run) {
  const std::size_t count = static_cast<std::size_t>(nx) * ny;
  std::vector<float> host(count);
  RandomFloats(h.next_seed()).fill(host);
  DeviceBuffer<float> in(count), out(count);
  in.upload(host);
  out.poison();
  static int calls = 0;
  const std::string what = "call " + std::to_string(++calls) + " (" + std::to_string(nx) + " x " + std::to_string(ny) + ")";
  const double bytes = 4.0 * static_cast<double>(count);
  h.call(range, what, {bytes, bytes}, [&] { run(in.get(), out.get(), nx, ny); });
  std::vector<float> got, input;
  in.download(input);
  if (const auto i = first_changed(input, host)) {
    h.wrong(what + ": the input changed at element " + std::to_string(*i) + " (the input is read-only)");
    return;
  }
  out.download(got);
  const auto want = [&](std::size_t i) { return static_cast<double>(host[(i % ny) * nx + i / ny]); };
  if (const auto i = first_wrong(got, h.tolerance(), want))
    h.wrong(what + ": out[" + std::to_string(*i / ny) + "][" + std::to_string(*i % ny) + "] is " + describe_value(got[*i]) +
            ", expected " + describe_value(static_cast<float>(want(*i))));
}

/// Lab 5's tiled transpose (coalesced, padded tile) on an n x n matrix of its own.
inline void reference_transpose_call(ExerciseHarness& h, const std::string& range, unsigned n) {
  const std::size_t count = static_cast<std::size_t>(n) * n;
  std::vector<float> host(count);
  RandomFloats(h.next_seed()).fill(host);
  DeviceBuffer<float> in(count), out(count);
  in.upload(host);
  out.poison();
  const dim3 block(32, 8), grid((n + 31) / 32, (n + 31) / 32);
  h.call(range, "the reference kernel", {}, [&] { kernels::transposeTiled<true><<<grid, block>>>(in.get(), out.get(), n, n); });
}

}  // namespace labbook::lab
