// Lab 5 exercise: the fastest transpose. Write the kernel below; do not change its signature,
// and write nothing else that runs (no main, no global objects). The harness launches it with
// 32 x 8 threads per block and a grid of ceil(nx / 32) x ceil(ny / 32) blocks: each block
// owns a 32 x 32 tile of `in`.
//
// `in` has ny rows of nx floats (row-major); write its transpose to `out` (nx rows of ny):
// out[x * ny + y] = in[y * nx + x] for every x < nx, y < ny.
#include <cuda_runtime.h>

__global__ void transpose(const float* in, float* out, unsigned nx, unsigned ny) {
  // Your code here.
}
