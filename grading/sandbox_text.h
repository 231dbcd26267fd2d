#pragma once
/// @file
/// The words the sandbox uses for what became of a run: seconds, bytes, signals, the last
/// line of a tool's complaint.
#include <cstdint>
#include <string>

namespace labbook::grading {

std::string format_seconds(double seconds);   ///< "0.04 s", "1.3 s", "60 s"
std::string format_bytes(std::uint64_t bytes); ///< "8 GiB", "8197.9 MiB", "12 bytes"
std::string signal_name(int sig);              ///< "SIGSEGV (invalid memory access)"
std::string last_line(const std::string& text);   ///< its last line that is not blank

}  // namespace labbook::grading
