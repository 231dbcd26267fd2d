#pragma once
#include <map>
#include <string>
#include <vector>

namespace labbook::profiler {

/// Runs `command` (argv[0] looked up in PATH) with `environment` added to ours, its output
/// going to ours (or its stdout to the file `stdout_path`, when given), and waits. Returns
/// its exit code, or 128 + signal number if a signal killed it (as shells do). Throws
/// labbook::Error if it cannot be started.
int run_program(const std::vector<std::string>& command,
                const std::map<std::string, std::string>& environment, const std::string& stdout_path = "");

/// True when `program` names an executable file, directly (with a '/') or through PATH,
/// as execvp would find it.
bool program_exists(const std::string& program);

}  // namespace labbook::profiler
