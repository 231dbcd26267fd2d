// The lab5-transpose harness: owns main and calls the student's transpose (host code that
// launches kernels as it likes) on fresh random matrices: two checks at sizes that are not
// multiples of 32 (one not square), three timed calls on 8192 x 8192, each beside lab 5's
// tiled kernel on matrices of its own, and a last check after them. Every call is checked,
// with the input compared against a private copy. See exercise_harness.h.
#include <string>

#include "exercise_harness.h"
#include "transpose_exercise.h"

// The student's entry point (submission.cu): transposes `in` (ny rows of nx floats) into
// `out`, both device memory; the harness synchronises the device after it returns.
void transpose(const float* in, float* out, unsigned nx, unsigned ny);

int main(int argc, char** argv) {
  using labbook::lab::transpose_size_name;
  labbook::lab::ExerciseHarness h(argc, argv, "harness");
  const auto call = [&](const std::string& range, unsigned nx, unsigned ny) {
    labbook::lab::student_transpose_call(h, range, nx, ny, transpose);
  };
  call("student/n=" + transpose_size_name(1000, 777), 1000, 777);
  call("student/n=" + transpose_size_name(2053, 2045), 2053, 2045);
  for (int i = 1; i <= 3; ++i) {
    call("student/n=8192/" + std::to_string(i), 8192, 8192);
    labbook::lab::reference_transpose_call(h, "reference/n=8192/" + std::to_string(i), 8192);
  }
  call("student/n=" + transpose_size_name(777, 1000), 777, 1000);   // still right after the timed calls
  return h.finish();
}
