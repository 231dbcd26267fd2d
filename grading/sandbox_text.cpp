#include "sandbox_text.h"

#include <signal.h>

#include <algorithm>

#include "labbook/model/numbers.h"
#include "sandbox.h"

namespace labbook::grading {

namespace {

std::string trim_number(double value, int decimals) {
  std::string s = with_decimals(value, decimals);
  if (s.find('.') != std::string::npos) {
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
  }
  return s;
}

}  // namespace

std::string format_seconds(double s) { return trim_number(s, s < 0.1 ? 2 : s < 10 ? 1 : 0) + " s"; }

std::string format_bytes(std::uint64_t bytes) {
  if (bytes >= (1ull << 30) && bytes % (1ull << 30) == 0) return std::to_string(bytes >> 30) + " GiB";
  if (bytes >= (1ull << 20)) return trim_number(static_cast<double>(bytes) / (1 << 20), 1) + " MiB";
  if (bytes >= (1ull << 10)) return trim_number(static_cast<double>(bytes) / (1 << 10), 1) + " KiB";
  return std::to_string(bytes) + " bytes";
}

std::string signal_name(int sig) {
  switch (sig) {
    case SIGSEGV: return "SIGSEGV (invalid memory access)";
    case SIGBUS: return "SIGBUS (bus error)";
    case SIGFPE: return "SIGFPE (arithmetic error)";
    case SIGILL: return "SIGILL (illegal instruction)";
    case SIGABRT: return "SIGABRT (abort)";
    case SIGKILL: return "SIGKILL";
    case SIGTERM: return "SIGTERM";
    case SIGINT: return "SIGINT";
    case SIGHUP: return "SIGHUP";
    case SIGQUIT: return "SIGQUIT";
    case SIGPIPE: return "SIGPIPE (write to a closed pipe)";
    case SIGXFSZ: return "SIGXFSZ (file size limit)";
    case SIGXCPU: return "SIGXCPU (CPU time limit)";
    case SIGTRAP: return "SIGTRAP";
    case SIGSYS: return "SIGSYS (bad system call)";
    case SIGALRM: return "SIGALRM";
    default: return "signal " + std::to_string(sig);
  }
}

std::string last_line(const std::string& text) {
  auto end = text.find_last_not_of("\n\r ");
  if (end == std::string::npos) return "";
  const auto begin = text.rfind('\n', end);
  return text.substr(begin == std::string::npos ? 0 : begin + 1, end + 1 - (begin == std::string::npos ? 0 : begin + 1));
}

std::string SandboxResult::describe() const {
  const std::string after = "after " + format_seconds(seconds);
  switch (end) {
    case End::Exited:
      return exit_code == 0 ? "exited normally " + after : "exited with code " + std::to_string(exit_code) + " " + after;
    case End::Signalled:
      return "killed by " + signal_name(signal) + " " + after;
    case End::TimedOut:
      return "stopped " + after + " (time limit)";
    case End::OutputFlood: {
      std::size_t records = 0;
      for (const auto& c : channels) records = std::max(records, c.size());
      if (records > std::max(out.size(), err.size()))
        return "stopped " + after + ": more than " + format_bytes(records) + " of records (record limit)";
      return "stopped " + after + ": more than " + format_bytes(std::max(out.size(), err.size())) +
             " of output (output limit)";
    }
    case End::TooMuchMemory:
      return "stopped " + after + ": it held " + format_bytes(peak_resident_bytes) +
             " of host memory, page-locked memory included, over its limit of " + format_bytes(resident_limit_bytes) +
             " (memory limit)";
    case End::TooManyProcesses:
      return "stopped " + after + " (time limit) while at its process limit, as a fork bomb would be";
    case End::FailedToStart: {
      const std::string why = last_line(err);
      return why.empty() ? "could not be started" : "could not be started: " + why;
    }
  }
  return "ended";
}

}  // namespace labbook::grading
