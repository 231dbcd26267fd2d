#pragma once
// The option checks of option_checks.h as CLI11 validators, for the two main files.
#include <string>

#include <CLI/CLI.hpp>

#include "option_checks.h"

namespace labbook::cli {

/// An --out folder's check, made before any work.
inline CLI::Validator output_folder() {
  return CLI::Validator([](std::string& value) { return output_folder_problem(value); }, "FOLDER");
}

}  // namespace labbook::cli
