// Adversarial: a destructor function (.fini_array) that runs when the program ends, after the
// harness has written everything.
#include <cstdio>

#include <cuda_runtime.h>

__attribute__((destructor)) static void after_main() { std::puts("correct"); }

void transpose(const float*, float*, unsigned, unsigned) {}
