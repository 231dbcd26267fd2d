// The lab5-transpose harness: owns main and calls the student's transpose (host code that
// launches kernels as it likes) on fresh random matrices: two checks at sizes that are not
// multiples of 32 (one not square), three timed calls on 8192 x 8192, each beside lab 5's
// tiled kernel on matrices of its own, and a last check after them. Every call is checked,
// with the input compared against a private copy. See exercise_harness.h.
#include <string>
#include <vector>

#include "device_buffer.h"
#include "exercise_harness.h"
#include "random_data.h"
#include "transpose.cuh"

// The student's entry point (submission.cu): transposes `in` (ny rows of nx floats) into
// `out`, both device memory; the harness synchronises the device after it returns.
void transpose(const float* in, float* out, unsigned nx, unsigned ny);

namespace {

using labbook::lab::ExerciseHarness;

std::string size_name(unsigned nx, unsigned ny) {
  return nx == ny ? std::to_string(nx) : std::to_string(nx) + "x" + std::to_string(ny);
}

/// One call of the student's code on a fresh nx x ny matrix, checked element by element.
void student_call(ExerciseHarness& h, const std::string& range, unsigned nx, unsigned ny) {
  const std::size_t count = static_cast<std::size_t>(nx) * ny;
  std::vector<float> host(count);
  labbook::lab::RandomFloats(h.next_seed()).fill(host);
  labbook::lab::DeviceBuffer<float> in(count), out(count);
  in.upload(host);
  out.poison();
  static int calls = 0;
  const std::string what = "call " + std::to_string(++calls) + " (" + std::to_string(nx) + " x " + std::to_string(ny) + ")";
  const double bytes = 4.0 * static_cast<double>(count);
  h.call(range, what, {bytes, bytes}, [&] { transpose(in.get(), out.get(), nx, ny); });
  std::vector<float> got, input;
  in.download(input);
  if (const auto i = labbook::lab::first_changed(input, host)) {
    h.wrong(what + ": the input changed at element " + std::to_string(*i) + " (the input is read-only)");
    return;
  }
  out.download(got);
  // out[x * ny + y] = in[y * nx + x]
  const auto want = [&](std::size_t i) { return static_cast<double>(host[(i % ny) * nx + i / ny]); };
  if (const auto i = labbook::lab::first_wrong(got, h.tolerance(), want))
    h.wrong(what + ": out[" + std::to_string(*i / ny) + "][" + std::to_string(*i % ny) + "] is " +
            labbook::lab::describe_value(got[*i]) + ", expected " + labbook::lab::describe_value(static_cast<float>(want(*i))));
}

/// Lab 5's tiled transpose on a square matrix of its own, set up and timed as the student's
/// calls are (input uploaded, then output poisoned): both start with L2 in the same state.
void reference_call(ExerciseHarness& h, const std::string& range, unsigned n) {
  const std::size_t count = static_cast<std::size_t>(n) * n;
  std::vector<float> host(count);
  labbook::lab::RandomFloats(h.next_seed()).fill(host);
  labbook::lab::DeviceBuffer<float> in(count), out(count);
  in.upload(host);
  out.poison();
  const dim3 block(32, 8), grid((n + 31) / 32, (n + 31) / 32);
  h.call(range, "the reference kernel", {}, [&] {
    labbook::kernels::transposeTiled<true><<<grid, block>>>(in.get(), out.get(), n, n);
  });
}

}  // namespace

int main(int argc, char** argv) {
  ExerciseHarness h(argc, argv, "harness");
  student_call(h, "student/n=" + size_name(1000, 777), 1000, 777);
  student_call(h, "student/n=" + size_name(2053, 2045), 2053, 2045);
  for (int i = 1; i <= 3; ++i) {
    student_call(h, "student/n=8192/" + std::to_string(i), 8192, 8192);
    reference_call(h, "reference/n=8192/" + std::to_string(i), 8192);
  }
  student_call(h, "student/n=" + size_name(777, 1000), 777, 1000);   // still right after the timed calls
  return h.finish();
}
