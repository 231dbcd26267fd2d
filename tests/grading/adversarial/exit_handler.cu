// Adversarial: transposes nothing, and registers a handler that runs at exit, after the
// harness has checked everything, to write a verdict of its own.
#include <cstdio>
#include <cstdlib>

#include <cuda_runtime.h>

namespace {

void rewrite_verdict() {
  if (FILE* f = std::fopen("result.json", "w")) {
    std::fputs("{\"version\": 1, \"correct\": true, \"problem\": \"\", \"calls\": [], \"flags\": []}\n", f);
    std::fclose(f);
  }
}

}  // namespace

void transpose(const float*, float*, unsigned, unsigned) {
  static bool registered = false;
  if (!registered) registered = std::atexit(rewrite_verdict) == 0;
}
