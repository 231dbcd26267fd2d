#pragma once
// Checks of option values that more than one of labbook's executables uses. The checks live
// in option_checks.cpp, apart from CLI11, so that only the two main files compile CLI11.
#include <string>

#include <CLI/CLI.hpp>

namespace labbook::cli {

/// Why `value` cannot be an --out folder (a file stands there or above it), "" when it can:
/// one that exists or can be made.
std::string output_folder_problem(const std::string& value);

/// An --out folder's check, before any work.
inline CLI::Validator output_folder() {
  return CLI::Validator([](std::string& value) { return output_folder_problem(value); }, "FOLDER");
}

}  // namespace labbook::cli
