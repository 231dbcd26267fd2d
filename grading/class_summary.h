#pragma once
/// @file
/// The class at a glance (grades/summary.md): how many were graded, the score distribution as
/// an SVG histogram, and the most common reasons points were lost.
#include <vector>

#include "scoring.h"
#include "sheet.h"

namespace labbook::grading {

report::Sheet class_summary(const Rubric& rubric, const std::vector<Score>& scores);

/// The histogram alone: `bins` bars over 0-100 % of the maximum score.
std::string score_histogram_svg(const std::vector<Score>& scores, int bins = 10);

}  // namespace labbook::grading
