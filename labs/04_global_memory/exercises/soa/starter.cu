// Lab 4 exercise: structure of arrays. Write the kernel below; do not change its signature,
// and write nothing else that runs (no main, no global objects): the harness owns main,
// launches your kernel with 256 threads per block and ceil(n / 256) blocks, and checks it.
//
// Point i has coordinates x[i], y[i] (two separate arrays: a structure of arrays).
// Write rx[i] = x[i] + 10 and ry[i] = y[i] + 20 for every i < n.
#include <cuda_runtime.h>

__global__ void add_points(const float* x, const float* y, float* rx, float* ry, unsigned n) {
  // Your code here.
}
