#pragma once
// The static managed variable of 003_c67e0f909fb510d6.txt (« La mémoire gérée peut être
// déclarée statiquement avec le mot-clé `__managed__` »): one int that host code and device
// code both use by its name, with no pointer and no copy call. Lab 2 only; a program may
// include this header in one translation unit.
#include <cuda_runtime.h>

namespace labbook::kernels {

/// 003's declaration, `__device__ __managed__ int y;`: device memory that the unified-memory
/// system migrates to whichever processor touches it.
__device__ __managed__ int y;

/// y += increment, from one thread.
__global__ void addToY(int increment) { y += increment; }

}  // namespace labbook::kernels
