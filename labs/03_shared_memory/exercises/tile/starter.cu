// Lab 3 exercise: a conflict-free shared-memory tile. Write the body of `transpose_tile` and
// keep its signature. The harness launches it itself, with 32 x 8 threads per block and one
// block per 32 x 32 tile: grid ((nx + 31) / 32, (ny + 31) / 32). Write nothing that runs by
// itself (no main, no global objects), open no files, start no threads or processes.
//
// `in` has ny rows of nx floats (row-major, device memory); write its transpose to `out`
// (nx rows of ny floats): out[x * ny + y] = in[y * nx + x] for every x < nx, y < ny.
#include <cuda_runtime.h>

__global__ void transpose_tile(const float* in, float* out, unsigned nx, unsigned ny) {
  // Your code here: read the block's tile of `in` by rows into shared memory, synchronise,
  // then write the tile's columns as rows of `out`, with no bank conflict on either side.
}
