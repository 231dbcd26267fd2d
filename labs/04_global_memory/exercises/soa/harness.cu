// The lab4-soa harness: owns main and launches the student's add_points on fresh random points:
// two checks at sizes that are not multiples of the block size, three timed calls at n = 2^22,
// each beside lab 4's simpleMathSoA on points of its own, and a last check after them. Every
// call's output goes to labbook, which checks it against a double-precision reference within
// the rubric's tolerances; the inputs are compared with private copies here. See
// exercise_harness.h.
#include <cstdint>
#include <string>
#include <vector>

#include "device_buffer.h"
#include "exercise_harness.h"
#include "global_memory.cuh"
#include "random_data.h"

// The student's kernel (submission.cu).
__global__ void add_points(const float* x, const float* y, float* rx, float* ry, unsigned n);

namespace {

using labbook::lab::ExerciseHarness;
constexpr unsigned kBlock = 256;

/// One call's points: fresh random inputs drawn from `seed` (kept on the host as the private
/// copy), uploaded, then outputs poisoned; the student's calls and the reference's are set up
/// alike, so both start with L2 in the same state.
struct Points {
  std::vector<std::vector<float>> in;   // x, y
  labbook::lab::DeviceBuffer<float> dx, dy, rx, ry;
  Points(std::uint64_t seed, unsigned n)
      : in(labbook::lab::add_constants_inputs(seed, n, 2)), dx(n), dy(n), rx(n), ry(n) {
    dx.upload(in[0]);
    dy.upload(in[1]);
    rx.poison();
    ry.poison();
  }
};

void student_call(ExerciseHarness& h, const std::string& range, unsigned n) {
  const std::uint64_t seed = h.next_seed();
  Points p(seed, n);
  const std::string what = h.next_student_call({n});
  h.call(range, what,
         [&] { add_points<<<(n + kBlock - 1) / kBlock, kBlock>>>(p.dx.get(), p.dy.get(), p.rx.get(), p.ry.get(), n); });
  std::vector<float> got(2 * static_cast<std::size_t>(n));
  p.rx.download(got.data());
  p.ry.download(got.data() + n);
  h.output(seed, {n}, got, [&] {
    return labbook::lab::check_add_constants(p.in, n, {10.0, 20.0}, {"rx", "ry"}, got.data(), h.tolerance());
  });
  std::vector<float> input;
  for (int k = 0; k < 2; ++k) {
    (k == 0 ? p.dx : p.dy).download(input);
    if (const auto i = labbook::lab::first_changed(input, p.in[k])) {
      h.wrong(what + ": the input " + (k == 0 ? "x" : "y") + " changed at element " + std::to_string(*i) +
              " (the inputs are read-only)");
      return;
    }
  }
}

/// Lab 4's simpleMathSoA on points of its own, timed as the student's calls are.
void reference_call(ExerciseHarness& h, const std::string& range, unsigned n) {
  Points p(h.next_seed(), n);
  h.call(range, "the reference kernel", [&] {
    labbook::kernels::simpleMathSoA<<<(n + kBlock - 1) / kBlock, kBlock>>>(
        labbook::kernels::innerArray{p.dx.get(), p.dy.get()}, labbook::kernels::innerArray{p.rx.get(), p.ry.get()}, n);
  });
}

}  // namespace

int main(int argc, char** argv) {
  ExerciseHarness h(argc, argv, "harness");
  return run_array_calls(h, student_call, reference_call);
}
