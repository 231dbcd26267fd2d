#pragma once
// The calls of a transpose exercise (lab 3's tile, lab 5's fastest transpose): a fresh random
// matrix, a poisoned output, the call timed by the harness, its output sent to labbook, and
// the input compared with its private copy. And lab 5's tiled kernel as the
// reference, set up exactly like a student's call so that both start with L2 alike.
#include <cstddef>
#include <cstdint>
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
/// rows of nx floats); its result must be out[x * ny + y] = in[y * nx + x]. The output goes to
/// labbook with the call's seed (ExerciseHarness::output); the input is compared with its
/// private copy here, since labbook sees only the output.
template <class Run>
void student_transpose_call(ExerciseHarness& h, const std::string& range, unsigned nx, unsigned ny, Run run) {
  const std::uint64_t seed = h.next_seed();
  const std::vector<float> host = transpose_input(seed, nx, ny);
  DeviceBuffer<float> in(host.size()), out(host.size());
  in.upload(host);
  out.poison();
  const std::string what = h.next_student_call({nx, ny});
  h.call(range, what, [&] { run(in.get(), out.get(), nx, ny); });
  std::vector<float> got, input;
  out.download(got);
  h.output(seed, {nx, ny}, got, [&] { return check_transpose(host, nx, ny, got.data(), h.tolerance()); });
  in.download(input);
  if (const auto i = first_changed(input, host))
    h.wrong(what + ": the input changed at element " + std::to_string(*i) + " (the input is read-only)");
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
  h.call(range, "the reference kernel", [&] { kernels::transposeTiled<true><<<grid, block>>>(in.get(), out.get(), n, n); });
}

}  // namespace labbook::lab
