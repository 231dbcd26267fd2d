#pragma once
/// @file
/// How the sandbox is made with bubblewrap: where bwrap is, whether a request can be run at
/// all, and (sandbox.h) the arguments that make its namespace.
#include <string>

#include "sandbox.h"

namespace labbook::grading {

inline constexpr int kStatusFd = 3;  ///< bwrap's --json-status-fd, as the child arranges its fds

/// bwrap's path from PATH (or /usr/bin), "" when it is not installed.
std::string find_bwrap();
/// Throws labbook::Error "sandbox: ..." for a request that cannot be run as asked.
void validate(const SandboxRequest& r);

}  // namespace labbook::grading
