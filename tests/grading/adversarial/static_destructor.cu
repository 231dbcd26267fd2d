// Adversarial: a function-local static whose destructor runs at exit, after the harness's
// checks (a destructor of a static registers itself with __cxa_atexit, not atexit).
#include <cstdio>

#include <cuda_runtime.h>

namespace {

struct AtExit {
  ~AtExit() { std::puts("correct"); }
};

}  // namespace

void transpose(const float*, float*, unsigned, unsigned) { static AtExit at_exit; }
