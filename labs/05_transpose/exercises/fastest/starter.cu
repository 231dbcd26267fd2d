// Lab 5 exercise: the fastest transpose. Write `transpose` below (host code: it launches your
// kernels however you like: block shape, grid, shared memory) and keep its signature. Write
// nothing that runs by itself (no main, no global objects), open no files, start no threads
// or processes: the harness owns main, gives you fresh data on every call, and synchronises
// the whole device after each call, so work left on any stream is counted.
//
// `in` has ny rows of nx floats (row-major, device memory); write its transpose to `out`
// (nx rows of ny floats, device memory): out[x * ny + y] = in[y * nx + x] for every x < nx, y < ny.
#include <cuda_runtime.h>

__global__ void transpose_kernel(const float* in, float* out, unsigned nx, unsigned ny) {
  // Your code here: this launch gives each block a 32 x 32 tile of `in`.
}

void transpose(const float* in, float* out, unsigned nx, unsigned ny) {
  const dim3 block(32, 8), grid((nx + 31) / 32, (ny + 31) / 32);
  transpose_kernel<<<grid, block>>>(in, out, nx, ny);
}
