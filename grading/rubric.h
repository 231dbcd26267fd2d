#pragma once
/// @file
/// A grading rubric (TOML): criteria with points, how each is measured, thresholds for
/// partial credit, and who sees it. Each exercise ships a default; an instructor's own file
/// replaces it. Loading validates everything and names file:line.
#include <optional>
#include <string>
#include <vector>

#include "labbook/model/quantity.h"

namespace labbook::grading {

/// One criterion. Either the correctness of the submission's results (all or nothing), or a
/// measured quantity scored linearly between `zero_at` (no points) and `full_at` (all
/// points); `full_at` below `zero_at` means lower is better (a time, sectors per request).
struct Criterion {
  std::string id, title;
  double points = 0;
  bool correctness = false;        ///< the checker's verdict on every call
  /// How far the correctness check lets a result be from the harness's double-precision
  /// reference: |got - want| <= absolute + relative * |want| (0 and 0: exactly). A matmul check
  /// scales `relative` by the sum of the terms' magnitudes instead (exercise_checks.h).
  double absolute_tolerance = 0, relative_tolerance = 0;
  std::optional<Quantity> measure; ///< otherwise: the quantity measured for the student's calls
  double full_at = 0, zero_at = 0;
  bool visible = true;             ///< false: shown to the instructor only
  std::string hint;                ///< Markdown, shown with a score below full
  bool needs_correct = true;       ///< no points while the results are wrong
  /// Criteria (ids, above this one) that must earn all their points before this one earns any:
  /// the speed of a kernel that does not do what the exercise teaches is no lesson's.
  std::vector<std::string> needs_full;
  int line = 0;                    ///< in the rubric file
};

struct Rubric {
  std::string path;                ///< the file it came from
  std::string exercise, title;
  std::vector<Criterion> criteria;
  double max_points() const;
  /// The correctness criterion (at most one), or nullptr.
  const Criterion* correctness() const;
};

/// Parses and validates a rubric. Throws labbook::Error "path:line: what is wrong".
Rubric load_rubric(const std::string& path);
/// Parses TOML text; `origin` is the name used in error messages.
Rubric parse_rubric(const std::string& toml_text, const std::string& origin);

}  // namespace labbook::grading
