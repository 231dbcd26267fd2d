// Planted cheat: the classic kernel, every input word read with an atomic that changes nothing
// (atomicOr(p, 0)). Global loads see none of it (0 load sectors), so it took the load points
// while loads alone were counted; global_read_sectors counts atomics too: no points for reads.
#include <cuda_runtime.h>

static __device__ float read_by_atomic(const float* p) {
  return __int_as_float(atomicOr(reinterpret_cast<int*>(const_cast<float*>(p)), 0));
}

__global__ void matmul_tiled(const float* A, const float* B, float* C, unsigned m, unsigned k, unsigned n) {
  const unsigned row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= m || col >= n) return;
  float sum = 0;
  for (unsigned e = 0; e < k; ++e)
    sum += read_by_atomic(A + static_cast<size_t>(row) * k + e) * read_by_atomic(B + static_cast<size_t>(e) * n + col);
  C[static_cast<size_t>(row) * n + col] = sum;
}
