// Adversarial: launches the lab's own reference kernel, which the harness links in, rather than
// a kernel of its own: the same speed as the reference, with nothing written.
#include <cuda_runtime.h>

namespace labbook::kernels {
template <bool Padded>
__global__ void transposeTiled(const float* in, float* out, unsigned nx, unsigned ny);
}

void transpose(const float* in, float* out, unsigned nx, unsigned ny) {
  const dim3 block(32, 8), grid((nx + 31) / 32, (ny + 31) / 32);
  labbook::kernels::transposeTiled<true><<<grid, block>>>(in, out, nx, ny);
}
