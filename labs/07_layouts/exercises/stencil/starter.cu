// Lab 7 exercise: a 5-point stencil on pitched rows. Write the body of `stencil5` and keep its
// signature. The harness launches it itself, with 32 x 8 threads per block and one thread per
// pixel: grid ((width + 31) / 32, (height + 7) / 8). Write nothing that runs by itself (no
// main, no global objects), open no files, start no threads or processes.
//
// `in` and `out` have `height` rows of `width` floats, allocated with cudaMallocPitch: row y
// starts `pitch` bytes after row y - 1 (pitch >= width * 4; the bytes past the width are
// padding). Write, for every x < width and y < height,
//   out[y][x] = c0 * in[y][x] + c1 * (in[y][x - 1] + in[y][x + 1] + in[y - 1][x] + in[y + 1][x]),
// where a neighbour outside the image takes the value of the nearest pixel inside it
// (x - 1 = -1 is read as 0, x + 1 = width as width - 1; the same for rows).
#include <cstddef>

#include <cuda_runtime.h>

__global__ void stencil5(const float* in, float* out, std::size_t pitch, unsigned width, unsigned height, float c0,
                         float c1) {
  // Your code here: find this thread's pixel, step from row to row by `pitch` bytes (through a
  // char pointer), and let the 32 threads of a warp read 32 neighbouring pixels of one row.
}
