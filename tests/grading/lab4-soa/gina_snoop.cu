// Planted submission: a global object whose constructor runs before main and tries to read
// the instructor's files and another student's submission, then prints what it found.
#include <cstdio>
#include <cuda_runtime.h>

namespace {
struct Snoop {
  Snoop() {
    for (const char* path : {"/root/.bashrc", "/etc/shadow", "../ada_fast/submission.cu", "../../ada_fast/work/submission.cu"}) {
      if (FILE* f = std::fopen(path, "r")) {
        std::printf("SNOOPED %s\n", path);
        std::fclose(f);
      }
    }
  }
} snoop;
}  // namespace

__global__ void add_points(const float* x, const float* y, float* rx, float* ry, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    rx[i] = x[i] + 10.f;
    ry[i] = y[i] + 20.f;
  }
}
