#include "memcheck.h"

#include <regex>
#include <sstream>

#include "labbook/model/error.h"

namespace labbook::grading {

namespace {

constexpr const char* kPrefix = "========= ";
/// At most this many errors are reported: the first few say what is wrong, and a kernel that
/// writes out of bounds in every thread would otherwise fill the feedback.
constexpr int kShown = 10;

/// False for the program's own output; else true, with the line's text after the prefix.
bool strip_prefix(const std::string& line, std::string& rest) {
  if (line.rfind(kPrefix, 0) != 0) return false;
  rest = line.substr(std::string(kPrefix).size());
  return true;
}

}  // namespace

MemcheckReport parse_memcheck_output(const std::string& output) {
  static const std::regex summary(R"(ERROR SUMMARY: (\d+) errors?)");
  MemcheckReport report;
  bool finished = false, in_backtrace = false;
  int seen = 0;
  std::istringstream lines(output);
  for (std::string line, rest; std::getline(lines, line);) {
    if (!strip_prefix(line, rest)) continue;
    std::smatch m;
    if (std::regex_search(rest, m, summary)) {
      report.errors = std::stoi(m[1]);
      finished = true;
    } else if (rest.empty() || rest.rfind("COMPUTE-SANITIZER", 0) == 0 || rest.rfind("Target application", 0) == 0) {
      continue;
    } else if (rest[0] != ' ') {   // an error's first line
      in_backtrace = false;
      if (++seen <= kShown) report.accesses.push_back(rest);
    } else if (seen <= kShown && !report.accesses.empty()) {
      // Indented lines belong to the current error: keep where and by whom, not the host stack.
      const std::string detail = rest.substr(rest.find_first_not_of(' '));
      if (detail.rfind("Saved host backtrace", 0) == 0) in_backtrace = true;
      if (!in_backtrace) report.accesses.back() += "\n  " + detail;
    }
  }
  if (!finished) throw Error("compute-sanitizer's output has no ERROR SUMMARY: it did not finish");
  const int shown = static_cast<int>(report.accesses.size());
  if (report.errors > shown) report.accesses.push_back("... and " + std::to_string(report.errors - shown) + " more, not shown");
  return report;
}

std::vector<std::string> memcheck_command(const std::string& sanitizer, const std::vector<std::string>& program) {
  std::vector<std::string> command = {sanitizer, "--tool", "memcheck", "--leak-check", "no",
                                      "--print-limit", std::to_string(kShown), "--error-exitcode", "0"};
  command.insert(command.end(), program.begin(), program.end());
  return command;
}

}  // namespace labbook::grading
