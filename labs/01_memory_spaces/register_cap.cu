// registerPressure's body again, in a file of its own so that one compiler option,
// -maxrregcount (CMakeLists.txt), applies to it alone: 002 and 003 name the option, and
// ptxas must then keep some of the kernel's live values in local memory (spill).
#include "memory_spaces_indexing.h"
#include "register_cap.h"

// Outside an anonymous namespace: its mangled name must not depend on the file's path, so
// that the sheet can match ptxas's report to the recorded launches.
namespace labbook::kernels {

__global__ void registerPressureCapped(const std::uint32_t* in, std::uint32_t* out, unsigned n, unsigned rounds) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = mix_result(in[i], rounds);
}

}  // namespace labbook::kernels

void launch_register_pressure_capped(unsigned grid, unsigned block, const std::uint32_t* in, std::uint32_t* out,
                                     unsigned n, unsigned rounds) {
  labbook::kernels::registerPressureCapped<<<grid, block>>>(in, out, n, rounds);
}
