#pragma once
/// @file
/// Scores a submission against a rubric from what grading found: whether it built, whether
/// its results were right, and what the collector measured for its kernel. Pure: the same
/// outcome always gives the same score.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "labbook/model/measurement.h"
#include "memcheck.h"
#include "rubric.h"

namespace labbook::grading {

/// What grading found for one submission.
struct SubmissionOutcome {
  std::string student;
  bool built = false;
  std::string build_log;                  ///< the compiler's output
  std::optional<bool> correct;            ///< nullopt: never checked (did not build, did not run)
  std::string problem;                    ///< why it is wrong or stopped, for the student
  std::map<std::string, double> measured; ///< quantity -> value for the student's kernel
  /// Why the measurement cannot be trusted (work hidden from it, data kept in L2, results
  /// reused, ...): with any, measured criteria earn nothing; correctness is scored as usual.
  std::vector<std::string> findings;
  /// What the trace saw the student's host code do (a host-code exercise): feedback only.
  std::vector<std::string> observations;
  /// compute-sanitizer's memcheck pass (--memcheck): feedback only, it changes no score.
  std::optional<MemcheckReport> memcheck;
  /// The student's kernels over all the calls of the run, instruction by instruction (an
  /// exercise with source_lines): feedback only, it changes no score.
  std::vector<SassInstruction> instructions;
};

struct CriterionScore {
  const Criterion* criterion = nullptr;
  double points = 0;
  std::optional<double> measured;
  std::string note;                       ///< why this score, e.g. "results are wrong"
};

struct Score {
  std::string student;
  double total = 0, max_total = 0;
  std::vector<CriterionScore> criteria;   ///< in the rubric's order
};

/// The share of a measured criterion's points `value` earns: 0 at or beyond zero_at, 1 at or
/// beyond full_at, linear between.
double partial_credit(const Criterion& c, double value);

Score score_submission(const Rubric& rubric, const SubmissionOutcome& outcome);

}  // namespace labbook::grading
