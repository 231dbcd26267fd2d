// The probes' one way to stop at a failed CUDA or CUPTI call: print the call and its status,
// exit 1. Include it from a probe (each probe is one file, built alone with nvcc).
#pragma once
#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                             \
  do {                                                                          \
    if (auto status = (call); status != 0) {                                    \
      std::fprintf(stderr, "%s failed: %d\n", #call, static_cast<int>(status)); \
      std::exit(1);                                                             \
    }                                                                           \
  } while (0)
