#pragma once
// The register-pressure kernel compiled under a low register cap (register_cap.cu is built
// with -maxrregcount; see CMakeLists.txt), launched from main.cu.
#include <cstdint>

/// Registers per thread the capped build may use, fewer than the kernel's live values: set
/// once in CMakeLists.txt, which passes it to nvcc as -maxrregcount and here.
inline constexpr int kRegisterCap = LABBOOK_REGISTER_CAP;

/// Launches registerPressureCapped<<<grid, block>>>(in, out, n, rounds) on the default stream.
void launch_register_pressure_capped(unsigned grid, unsigned block, const std::uint32_t* in, std::uint32_t* out,
                                     unsigned n, unsigned rounds);
