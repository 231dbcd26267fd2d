#pragma once
/// @file
/// LABBOOK_HOST_DEVICE: index functions compiled for the GPU by nvcc and for the host by the
/// host compiler, so the kernels and the warp model (kernels/*_model.cpp) share one copy.
#ifdef __CUDACC__
#define LABBOOK_HOST_DEVICE __host__ __device__
#else
#define LABBOOK_HOST_DEVICE
#endif
