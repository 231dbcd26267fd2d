#pragma once
/// @file
/// labbook's exit codes, in one place (main.cpp and the README list them).
namespace labbook::cli {

inline constexpr int kExitFailure = 1;      ///< bad input, wrong lab result, I/O
inline constexpr int kExitUsage = 2;        ///< a command-line mistake, found before anything runs
inline constexpr int kExitReportLost = 70;  ///< profile: the program succeeded, labbook could write nothing
inline constexpr int kExitNoGpu = 77;       ///< nothing to profile on (the GPU tests' "skipped")

/// `labbook profile` exits with the program's exit code, so that scripts around the
/// program behave as without labbook. Only when the program succeeded and labbook's own
/// report step could write nothing at all does labbook say so with kExitReportLost.
constexpr int profile_exit_code(int program_exit, bool wrote_anything) {
  return program_exit == 0 && !wrote_anything ? kExitReportLost : program_exit;
}

}  // namespace labbook::cli
