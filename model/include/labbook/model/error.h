#pragma once
// Errors crossing module boundaries are values: what went wrong and where (file, line or
// field), so the CLI can print one clear line and exit non-zero.
#include <stdexcept>
#include <string>

namespace labbook {

/// A user-facing failure: bad input file, bad argument, failed I/O. `what()` names the
/// file and the line or field, e.g. "lab.toml:12: experiment 'x': unknown metric 'y'".
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace labbook
