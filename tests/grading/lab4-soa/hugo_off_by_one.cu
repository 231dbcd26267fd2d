// Planted submission: coalesced and right on every checked element, but its bounds test lets
// one thread write one element past the end of rx. The write lands in the allocation's slack,
// so nothing crashes and every check passes; only compute-sanitizer (--memcheck) sees it.
#include <cuda_runtime.h>

__global__ void add_points(const float* x, const float* y, float* rx, float* ry, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const float xi = i < n ? x[i] : 0.f, yi = i < n ? y[i] : 0.f;
  if (i < n) ry[i] = yi + 20.f;
  if (i <= n) rx[i] = xi + 10.f;
}
