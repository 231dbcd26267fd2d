#pragma once
// C = A B through cuBLAS (SGEMM, DGEMM), for the sources' row-major Matrix: cuBLAS works by
// columns, and a row-major matrix read by columns is its transpose, so it computes
// C^T = B^T A^T, which leaves C by rows.
#include <cstdio>
#include <cstdlib>

#include <cublas_v2.h>

#include "matmul_indexing.h"

#define CUBLAS_CHECK(call)                                                                          \
  do {                                                                                              \
    const cublasStatus_t status_ = (call);                                                          \
    if (status_ != CUBLAS_STATUS_SUCCESS) {                                                         \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call, cublasGetStatusString(status_)); \
      std::exit(1);                                                                                 \
    }                                                                                               \
  } while (0)

namespace labbook::lab {

using labbook::kernels::Matrix;

inline void cublas_product(cublasHandle_t handle, const Matrix<float>& A, const Matrix<float>& B, Matrix<float>& C) {
  const float one = 1, zero = 0;
  CUBLAS_CHECK(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, B.width, A.height, A.width, &one, B.elements, B.stride,
                           A.elements, A.stride, &zero, C.elements, C.stride));
}

inline void cublas_product(cublasHandle_t handle, const Matrix<double>& A, const Matrix<double>& B, Matrix<double>& C) {
  const double one = 1, zero = 0;
  CUBLAS_CHECK(cublasDgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, B.width, A.height, A.width, &one, B.elements, B.stride,
                           A.elements, A.stride, &zero, C.elements, C.stride));
}

/// A cuBLAS handle for the program's lifetime, created before any experiment so that no
/// set-up work falls inside a range.
class CublasHandle {
 public:
  CublasHandle() { CUBLAS_CHECK(cublasCreate(&handle_)); }
  ~CublasHandle() { cublasDestroy(handle_); }
  CublasHandle(const CublasHandle&) = delete;
  CublasHandle& operator=(const CublasHandle&) = delete;
  cublasHandle_t get() const { return handle_; }

 private:
  cublasHandle_t handle_ = nullptr;
};

}  // namespace labbook::lab
