// Adversarial: does no work and writes the harness's result file itself, claiming success.
#include <cstdio>

#include <cuda_runtime.h>

void transpose(const float* in, float* out, unsigned nx, unsigned ny) {
  if (FILE* f = std::fopen("result.json", "w")) {
    std::fputs("{\"version\": 1, \"correct\": true, \"problem\": \"\", \"calls\": [], \"flags\": []}\n", f);
    std::fclose(f);
  }
}
