#pragma once
/// @file
/// What the collector asks of the process it lives in: its command line, the calling thread's
/// id, the time in UTC, and a descriptor to write the measurement to. No CUPTI: unit tests ask
/// them of the test program itself.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace labbook::profiler {

/// Writes all of `text` to `fd` (a pipe: the parent reads as it comes), again where a write
/// was interrupted or partial. Throws labbook::Error naming `fd` when a write fails.
void write_all(int fd, std::string_view text);

/// The calling thread's id (gettid), read once per thread (a system call) and again after a fork.
std::uint32_t this_thread_id();

/// Now, in UTC: "2026-11-28T09:15:02Z".
std::string utc_now_iso8601();

/// The process's own command line (/proc/self/cmdline), one element an argument.
std::vector<std::string> own_command_line();

}  // namespace labbook::profiler
