#pragma once
/// @file
/// The harness's record channel (protocol 2), read and judged by `labbook grade` outside the
/// student's process. The harness (labs/common/exercise_harness.h) writes, as they happen, to
/// a pipe labbook reads while the program runs:
///
///     {"labbook_harness": 2}                                        first, once (lab::kHarnessProtocol)
///     {"setup_failed": TEXT}                                        CUDA or the filter could not be set up
///     {"call": RANGE, "seconds": S}                                 each timed call
///     {"output": SEED, "shape": [NX, NY], "bytes": N} + N bytes     after a student's call: its output
///     {"problem": TEXT}                                             what the harness saw wrong (an input changed, a CUDA error)
///     {"flag": CODE, "message": TEXT}                               a device setting the call left behind
///     {"end": true}                                                 last, once
///
/// Nothing of the verdict is taken from the program: labbook checks every output itself
/// (labs/common/exercise_checks.h) against inputs it draws again from the seed, and a stream
/// that breaks the protocol (a wrong version, a record too many or out of place, bytes after
/// the end, no end) makes the run wrong, with the reason.
#include <cstdint>
#include <string>
#include <vector>

#include "exercise.h"
#include "exercise_checks.h"

namespace labbook::grading {

struct HarnessCall {
  std::string range;             ///< NVTX path, e.g. "student/n=8192/2"
  double seconds = 0;            ///< from one device-wide synchronisation to the next
  /// The bytes the problem must move, from the exercise and the call's shape (never from the
  /// program); 0 for the reference's calls.
  double compulsory_read_bytes = 0, compulsory_write_bytes = 0;
};

struct HarnessFlag {
  std::string code, message;
};

/// One run's verdict, judged by labbook.
struct HarnessResult {
  bool correct = false;
  std::string problem;           ///< why it is wrong, for the student
  std::vector<HarnessCall> calls;
  std::vector<HarnessFlag> flags;
  /// The harness could not set up (CUDA, the seccomp filter) before any student code ran:
  /// labbook's trouble, not the student's.
  std::string setup_failure;
};

/// Reads one run's record stream and judges it: `base_seed` is the --seed labbook gave the
/// harness, `tolerance` the rubric's. Never throws for what the stream holds.
HarnessResult judge_harness_records(const std::string& stream, const Exercise& exercise, std::uint64_t base_seed,
                                    const lab::Tolerance& tolerance);

}  // namespace labbook::grading
