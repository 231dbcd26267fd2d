#pragma once
/// @file
/// What grading writes: the class's table (grades.csv, grades.json, one row per student in a
/// stable column order), a Gradescope results.json per student, and each student's feedback
/// as a sheet (Markdown and HTML through report/). Hidden criteria appear only in what the
/// instructor reads.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "scoring.h"
#include "sheet.h"

namespace labbook::grading {

/// student,total,max, then one column per criterion id in the rubric's order; rows by student.
std::string grades_csv(const Rubric& rubric, std::vector<Score> scores);
nlohmann::json grades_json(const Rubric& rubric, std::vector<Score> scores);

/// A student's score with what grading found (score.json), and back: a re-run reads the
/// scores of students graded before from these files.
nlohmann::json score_json(const Score& score, const SubmissionOutcome& outcome);
Score score_from_json(const Rubric& rubric, const nlohmann::json& j);

/// Gradescope's autograder format: score, and one test per criterion ("hidden" visibility for
/// the instructor's criteria).
nlohmann::json gradescope_results(const Score& score);

/// The student's feedback: per visible criterion the points, the value measured beside the
/// target, why, and the hint when short of full marks; the compiler's or checker's output
/// where it explains a zero. `for_instructor` adds the hidden criteria.
report::Sheet feedback_sheet(const Rubric& rubric, const Score& score, const SubmissionOutcome& outcome,
                             bool for_instructor);

/// What `grade --build-only` tells a student: whether the submission builds and passes the
/// object check, the errors (C++ names demangled) and the compiler's whole output; no score.
report::Sheet build_feedback_sheet(const Rubric& rubric, const std::string& student, const SubmissionOutcome& outcome);

}  // namespace labbook::grading
