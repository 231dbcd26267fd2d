#pragma once
// How an exercise call's output is checked, shared by the harness (which prints its own verdict
// for a student running it alone) and by `labbook grade`, which checks the output bytes the
// harness sends it in a process no student code ever ran in, against inputs it draws again
// from the call's seed. Host code only, no CUDA: the inputs come from random_data.h alone.
//
//   transpose      one input of ny rows of nx floats; out[x * ny + y] = in[y * nx + x]
//   add_constants  k inputs of n floats drawn one after the other from the same generator;
//                  output k is input k + constants[k], the outputs one after the other
//   local_array    n words, then n starts (0 to 31), from the same generator; out[i] is lab 1's
//                  local_array_result(in[i], start[i]) (kernels/memory_spaces_indexing.h, host
//                  code too), a word sent as the records' 4-byte element, compared bit for bit
//   stencil5       (lab 7) one input of height rows of width pixels, whole numbers 0 to 255;
//                  out[y][x] = c0 * in[y][x] + c1 * (left + right + up + down), a neighbour
//                  outside the image taking the value of the nearest pixel inside it (lab 7's
//                  clamped(), kernels/layouts_indexing.h); the output sent packed, row after
//                  row, without the padding of the harness's pitched rows
//   matmul         (lab 6) A (m x k) then B (k x n), row-major floats uniform in [-1, 1), from the
//                  same generator; out is C = A B (m x n), each element within absolute +
//                  relative x the sum of its terms' magnitudes of the double-precision product
//   affine_rounds  (labs 2 and 8, host-code exercises) n words; out[i] is lab 8's affineRounds
//                  result, round_map() applied constants[0] times to in[i], compared bit for bit
// One file per kind: exercise_check_basics.h (what they share), transpose_check.h,
// add_constants_check.h, local_array_check.h, stencil_check.h, matmul_check.h and
// affine_rounds_check.h.
#include "add_constants_check.h"
#include "affine_rounds_check.h"
#include "exercise_check_basics.h"
#include "local_array_check.h"
#include "matmul_check.h"
#include "stencil_check.h"
#include "transpose_check.h"
