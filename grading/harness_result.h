#pragma once
/// @file
/// What an exercise harness wrote (result.json, see labs/common/exercise_harness.h): its
/// verdict, every call it made (NVTX range, time between device-wide synchronisations, the
/// bytes the problem must move), and what it flagged.
#include <string>
#include <vector>

namespace labbook::grading {

struct HarnessCall {
  std::string range;             ///< NVTX path, e.g. "student/n=8192/2"
  double seconds = 0;            ///< from one device-wide synchronisation to the next
  double compulsory_read_bytes = 0, compulsory_write_bytes = 0;   ///< 0: not checked
};

struct HarnessFlag {
  std::string code, message;
};

struct HarnessResult {
  bool correct = false;
  std::string problem;           ///< why the results are wrong, for the student
  std::vector<HarnessCall> calls;
  std::vector<HarnessFlag> flags;
};

/// Parses result.json text. Throws labbook::Error naming `origin` when it is not one: the
/// file is written by the harness, in the same process as the student's code.
HarnessResult parse_harness_result(const std::string& json_text, const std::string& origin);

}  // namespace labbook::grading
