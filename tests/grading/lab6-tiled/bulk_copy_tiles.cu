// Planted cheat: each row of the A tile fetched by the Tensor Memory Accelerator
// (cp.async.bulk), whose traffic no load or sector counter sees. Refused at the build.
#include <cstdint>
#include <cuda_runtime.h>

__global__ void matmul_tiled(const float* A, const float* B, float* C, unsigned m, unsigned k, unsigned n) {
  __shared__ alignas(128) float row_of_a[16];
  __shared__ alignas(8) std::uint64_t arrived;
  const unsigned row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;
  const unsigned buffer = static_cast<unsigned>(__cvta_generic_to_shared(row_of_a));
  const unsigned barrier = static_cast<unsigned>(__cvta_generic_to_shared(&arrived));
  if (threadIdx.x == 0 && threadIdx.y == 0) {
    asm volatile("mbarrier.init.shared.b64 [%0], 1;" ::"r"(barrier));
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], 64, [%2];" ::"r"(buffer),
                 "l"(A), "r"(barrier) : "memory");
  }
  __syncthreads();
  if (row < m && col < n) C[static_cast<size_t>(row) * n + col] = row_of_a[threadIdx.x] * B[col] * static_cast<float>(k);
}
