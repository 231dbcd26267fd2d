// Adversarial: lets lab 6's own MatMulSharedKernel<float>, which the harness links in for its
// reference calls, do the work as a child grid, so that the kernel the harness launches loads
// nothing itself. Refused at build: the submission's device code calls lab 6's kernel.
#include <cuda_runtime.h>

namespace labbook::kernels {
template <typename T>
struct Matrix {
  int width;
  int height;
  int stride;
  T* elements;
};
template <typename T>
__global__ void MatMulSharedKernel(Matrix<T> A, Matrix<T> B, Matrix<T> C);
}  // namespace labbook::kernels

__global__ void matmul_tiled(const float* A, const float* B, float* C, unsigned m, unsigned k, unsigned n) {
  using labbook::kernels::Matrix;
  if (blockIdx.x == 0 && blockIdx.y == 0 && threadIdx.x == 0 && threadIdx.y == 0) {
    const Matrix<float> a{static_cast<int>(k), static_cast<int>(m), static_cast<int>(k), const_cast<float*>(A)};
    const Matrix<float> b{static_cast<int>(n), static_cast<int>(k), static_cast<int>(n), const_cast<float*>(B)};
    const Matrix<float> c{static_cast<int>(n), static_cast<int>(m), static_cast<int>(n), C};
    labbook::kernels::MatMulSharedKernel<float><<<gridDim, blockDim>>>(a, b, c);
  }
}
