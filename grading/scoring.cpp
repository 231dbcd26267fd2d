#include "scoring.h"

#include <algorithm>
#include <cmath>

namespace labbook::grading {

double partial_credit(const Criterion& c, double value) {
  if (std::isnan(value)) return 0;
  return std::clamp((value - c.zero_at) / (c.full_at - c.zero_at), 0.0, 1.0);
}

namespace {

/// Points rounded to hundredths, so that totals print and compare the same everywhere; + 0.0
/// turns the -0 that a criterion scored at its zero_at can give (full_at below zero_at) into 0.
double hundredths(double points) { return std::round(points * 100.0) / 100.0 + 0.0; }

CriterionScore score_criterion(const Criterion& c, const SubmissionOutcome& o, const std::vector<CriterionScore>& above) {
  CriterionScore s;
  s.criterion = &c;
  if (!o.built) {
    s.note = o.problem.empty() ? "the submission did not build" : o.problem;
    return s;
  }
  if (c.correctness) {
    if (o.correct.value_or(false)) s.points = c.points;
    else s.note = o.problem.empty() ? "results were not checked" : o.problem;
    return s;
  }
  if (c.needs_correct && !o.correct.value_or(false)) {
    s.note = "no points while the results are wrong";
    return s;
  }
  if (!o.findings.empty()) {
    s.note = "not scored: " + o.findings.front();
    return s;
  }
  const auto it = o.measured.find(c.measure->name());
  if (it == o.measured.end()) {
    s.note = "not measured";
    return s;
  }
  s.measured = it->second;
  for (const auto& needed : c.needs_full)
    for (const auto& earlier : above)
      if (earlier.criterion->id == needed && earlier.points < earlier.criterion->points) {
        s.note = "no points until \"" + earlier.criterion->title + "\" earns all its points";
        return s;
      }
  s.points = hundredths(c.points * partial_credit(c, it->second));
  return s;
}

}  // namespace

Score score_submission(const Rubric& rubric, const SubmissionOutcome& outcome) {
  Score score;
  score.student = outcome.student;
  for (const auto& c : rubric.criteria) {
    score.criteria.push_back(score_criterion(c, outcome, score.criteria));
    score.total += score.criteria.back().points;
    score.max_total += c.points;
  }
  score.total = hundredths(score.total);
  return score;
}

}  // namespace labbook::grading
