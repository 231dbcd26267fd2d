// Adversarial: does no work and writes the harness's result file through system calls of its
// own (inline assembly), so that no call to open or write shows in its object's symbols.
#include <cuda_runtime.h>

namespace {

long raw(long number, long a, long b, long c) {
  long result;
  asm volatile("syscall" : "=a"(result) : "a"(number), "D"(a), "S"(b), "d"(c) : "rcx", "r11", "memory");
  return result;
}

}  // namespace

void transpose(const float*, float*, unsigned, unsigned) {
  static const char path[] = "result.json";
  static const char verdict[] = "{\"version\": 1, \"correct\": true, \"problem\": \"\", \"calls\": [], \"flags\": []}\n";
  const long fd = raw(257 /* openat */, -100 /* AT_FDCWD */, reinterpret_cast<long>(path), 01 | 0100 | 01000);
  if (fd >= 0) raw(1 /* write */, fd, reinterpret_cast<long>(verdict), sizeof verdict - 1);
}
