#pragma once
/// @file
/// `labbook grade --memcheck`: what compute-sanitizer's memcheck tool found in one run of a
/// submission's harness. Out-of-bounds and misaligned accesses that do not crash the program
/// (a write one element past the end lands in the allocation's slack) pass every result check;
/// the sanitizer sees them, and the student is told which access, in which kernel, by which thread.
#include <string>
#include <vector>

namespace labbook::grading {

struct MemcheckReport {
  std::string not_run;                 ///< why the pass did not run or finish; "" when it did
  int errors = 0;                      ///< the sanitizer's ERROR SUMMARY count
  /// One entry per error reported, in order: its description, where, by which thread, and
  /// the address (the sanitizer's own lines, host backtraces left out).
  std::vector<std::string> accesses;
};

/// Reads compute-sanitizer's output (lines prefixed "========= "). Throws Error when the
/// output has no ERROR SUMMARY: the sanitizer did not finish.
MemcheckReport parse_memcheck_output(const std::string& output);

/// The command that runs `program` under memcheck, `sanitizer` being compute-sanitizer's path.
std::vector<std::string> memcheck_command(const std::string& sanitizer, const std::vector<std::string>& program);

}  // namespace labbook::grading
