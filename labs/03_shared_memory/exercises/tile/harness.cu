// The lab3-tile harness: owns main and launches the student's transpose_tile (32 x 8 threads,
// a block per 32 x 32 tile) on fresh random matrices: two checks at sizes that are not
// multiples of 32 (one not square), three timed calls on 4096 x 4096 (64 MiB each way: more
// than L2 holds), each beside lab 5's padded tiled kernel on matrices of its own, and a last
// check after them. Every call is checked, with the input compared against a private copy.
#include <string>

#include "exercise_harness.h"
#include "transpose_exercise.h"

// The student's kernel (submission.cu).
__global__ void transpose_tile(const float* in, float* out, unsigned nx, unsigned ny);

namespace {

void launch(const float* in, float* out, unsigned nx, unsigned ny) {
  const dim3 block(32, 8), grid((nx + 31) / 32, (ny + 31) / 32);
  transpose_tile<<<grid, block>>>(in, out, nx, ny);
}

}  // namespace

int main(int argc, char** argv) {
  using labbook::lab::transpose_size_name;
  labbook::lab::ExerciseHarness h(argc, argv, "harness");
  const auto call = [&](const std::string& range, unsigned nx, unsigned ny) {
    labbook::lab::student_transpose_call(h, range, nx, ny, launch);
  };
  call("student/n=" + transpose_size_name(1000, 777), 1000, 777);
  call("student/n=" + transpose_size_name(2053, 2045), 2053, 2045);
  for (int i = 1; i <= 3; ++i) {
    call("student/n=4096/" + std::to_string(i), 4096, 4096);
    labbook::lab::reference_transpose_call(h, "reference/n=4096/" + std::to_string(i), 4096);
  }
  call("student/n=" + transpose_size_name(777, 1000), 777, 1000);   // still right after the timed calls
  return h.finish();
}
