#pragma once
// Checks of option values that both of labbook's executables use, apart from CLI11 so that only
// their main files compile it (cli_validators.h wraps them for CLI11).
#include <string>

namespace labbook::cli {

/// Why `value` cannot be an --out folder (a file stands there or above it), "" when it can:
/// one that exists or can be made.
std::string output_folder_problem(const std::string& value);

}  // namespace labbook::cli
