// Adversarial: writes nothing, hoping the output buffer still holds an earlier result.
#include <cuda_runtime.h>

void transpose(const float* in, float* out, unsigned nx, unsigned ny) {}
