// The lab4-soa harness: owns main and launches the student's add_points on fresh random points:
// two checks at sizes that are not multiples of the block size, three timed calls at n = 2^22,
// each beside lab 4's simpleMathSoA on points of its own, and a last check after them. Every
// call is checked against a double-precision reference within the rubric's tolerances, and the
// inputs against private copies. See exercise_harness.h.
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

/// The first wrong element of one output (`name`), as the student should read it.
std::string check_output(const ExerciseHarness& h, const char* name, const std::vector<float>& got,
                         const std::vector<float>& in, double add) {
  const auto want = [&](std::size_t i) { return static_cast<double>(in[i]) + add; };
  const auto i = labbook::lab::first_wrong(got, h.tolerance(), want);
  if (!i) return "";
  char expected[40];
  std::snprintf(expected, sizeof expected, "%.9g", want(*i));
  return std::string(name) + "[" + std::to_string(*i) + "] is " + labbook::lab::describe_value(got[*i]) + ", expected " +
         expected;
}

/// One call's points: fresh random inputs (kept on the host as the private copy), uploaded,
/// then outputs poisoned; the student's calls and the reference's are set up alike, so both
/// start with L2 in the same state.
struct Points {
  std::vector<float> x, y;
  labbook::lab::DeviceBuffer<float> dx, dy, rx, ry;
  Points(ExerciseHarness& h, unsigned n) : x(n), y(n), dx(n), dy(n), rx(n), ry(n) {
    labbook::lab::RandomFloats rng(h.next_seed());
    rng.fill(x);
    rng.fill(y);
    dx.upload(x);
    dy.upload(y);
    rx.poison();
    ry.poison();
  }
};

void student_call(ExerciseHarness& h, const std::string& range, unsigned n) {
  Points p(h, n);
  static int calls = 0;
  const std::string what = "call " + std::to_string(++calls) + " (n = " + std::to_string(n) + ")";
  const double bytes = 8.0 * n;
  h.call(range, what, {bytes, bytes},
         [&] { add_points<<<(n + kBlock - 1) / kBlock, kBlock>>>(p.dx.get(), p.dy.get(), p.rx.get(), p.ry.get(), n); });
  std::vector<float> got, input;
  for (const auto* in : {&p.dx, &p.dy}) {
    in->download(input);
    if (const auto i = labbook::lab::first_changed(input, in == &p.dx ? p.x : p.y)) {
      h.wrong(what + ": the input " + (in == &p.dx ? "x" : "y") + " changed at element " + std::to_string(*i) +
              " (the inputs are read-only)");
      return;
    }
  }
  p.rx.download(got);
  std::string problem = check_output(h, "rx", got, p.x, 10.0);
  if (problem.empty()) {
    p.ry.download(got);
    problem = check_output(h, "ry", got, p.y, 20.0);
  }
  if (!problem.empty()) h.wrong(what + ": " + problem);
}

/// Lab 4's simpleMathSoA on points of its own, timed as the student's calls are.
void reference_call(ExerciseHarness& h, const std::string& range, unsigned n) {
  Points p(h, n);
  h.call(range, "the reference kernel", {}, [&] {
    labbook::kernels::simpleMathSoA<<<(n + kBlock - 1) / kBlock, kBlock>>>(
        labbook::kernels::innerArray{p.dx.get(), p.dy.get()}, labbook::kernels::innerArray{p.rx.get(), p.ry.get()}, n);
  });
}

}  // namespace

int main(int argc, char** argv) {
  ExerciseHarness h(argc, argv, "harness");
  student_call(h, "student/n=1000003", 1000003);
  student_call(h, "student/n=4194321", 4194304 + 17);
  for (int i = 1; i <= 3; ++i) {
    student_call(h, "student/n=4194304/" + std::to_string(i), 4194304);
    reference_call(h, "reference/n=4194304/" + std::to_string(i), 4194304);
  }
  student_call(h, "student/n=999999", 999999);   // still right after the timed calls
  return h.finish();
}
