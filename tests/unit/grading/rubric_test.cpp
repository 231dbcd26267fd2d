// Grading rubrics: parsing with file:line errors, partial credit, hidden criteria, and
// scores that do not depend on anything but the outcome.
#include <gtest/gtest.h>

#include <cmath>

#include "labbook/model/error.h"
#include "labbook/model/quantity.h"
#include "rubric.h"
#include "scoring.h"

using namespace labbook::grading;

namespace {
const char* kRubric = R"([rubric]
exercise = "lab4-misaligned"
title = "Fix the misaligned read"

[[criterion]]
id = "correct"
title = "Correct results on fresh inputs"
points = 40
correctness = true

[[criterion]]
id = "efficiency"
title = "Load efficiency"
points = 30
measure = "gld_efficiency"
full_at = 100.0
zero_at = 50.0
hint = "Align each warp's first address to 32 bytes."

[[criterion]]
id = "sectors"
title = "Sectors per request"
points = 20
measure = "gld_transactions_per_request"
full_at = 4.0
zero_at = 8.0

[[criterion]]
id = "bandwidth"
title = "Bandwidth against the reference kernel"
points = 10
measure = "speed_pct_of_reference"
full_at = 90
zero_at = 30
visible = false
)";

std::string error_of(const std::string& text) {
  try {
    parse_rubric(text, "my.toml");
  } catch (const labbook::Error& e) {
    return e.what();
  }
  return "";
}

SubmissionOutcome good() {
  SubmissionOutcome o;
  o.student = "ada";
  o.built = true;
  o.correct = true;
  o.measured = {{"gld_efficiency", 80.0}, {"gld_transactions_per_request", 5.0}, {"speed_pct_of_reference", 95.0}};
  return o;
}
}  // namespace

TEST(Rubric, ParsesCriteriaInOrder) {
  const Rubric r = parse_rubric(kRubric, "my.toml");
  EXPECT_EQ(r.exercise, "lab4-misaligned");
  ASSERT_EQ(r.criteria.size(), 4u);
  EXPECT_TRUE(r.criteria[0].correctness);
  EXPECT_FALSE(r.criteria[0].needs_correct);
  EXPECT_TRUE(r.criteria[1].needs_correct);
  EXPECT_FALSE(r.criteria[3].visible);
  EXPECT_EQ(r.criteria[1].line, 11);
  EXPECT_DOUBLE_EQ(r.max_points(), 100);
}

TEST(Rubric, BadFilesNameFileLineAndKey) {
  std::string bad = kRubric;
  bad.replace(bad.find("points = 30"), 11, "points = \"thirty\"");
  EXPECT_EQ(error_of(bad), "my.toml:14: [[criterion]]: 'points' must be a number");
  bad = kRubric;
  bad.replace(bad.find("zero_at = 50.0"), 14, "zero_at = 100.0");
  EXPECT_EQ(error_of(bad), "my.toml:17: [[criterion]]: 'zero_at' must differ from 'full_at' (partial credit runs between them)");
  bad = kRubric;
  bad.replace(bad.find("hint ="), 6, "hnt =");
  EXPECT_EQ(error_of(bad), "my.toml:18: [[criterion]]: unknown key 'hnt'");
  bad = kRubric;
  bad.replace(bad.find("id = \"sectors\""), 14, "id = \"efficiency\"");
  EXPECT_EQ(error_of(bad), "my.toml:21: [[criterion]]: 'id' repeats 'efficiency'");
  EXPECT_EQ(error_of("[rubric]\nexercise = \"x\"\ntitle = \"t\"\n"), "my.toml:1: rubric: needs at least one [[criterion]]");
  EXPECT_NE(error_of("[rubric\n").find("my.toml:1: "), std::string::npos);
  const std::string both = std::string(kRubric) + "\n[[criterion]]\nid = \"x\"\ntitle = \"x\"\npoints = 1\ncorrectness = true\n"
                                                   "measure = \"time\"\nfull_at = 1\nzero_at = 2\n";
  EXPECT_EQ(error_of(both), "my.toml:37: [[criterion]]: needs either 'correctness = true' or a 'measure', not both");
  bad = kRubric;
  bad.replace(bad.find("measure = \"gld_efficiency\""), 26, "measure = \"gld_eficiency\"");
  EXPECT_NE(error_of(bad).find("my.toml:15: [[criterion]]: 'measure' is 'gld_eficiency', which labbook does not measure"),
            std::string::npos) << error_of(bad);
  EXPECT_NE(error_of(bad).find("gld_efficiency"), std::string::npos) << "the closest name is offered";
  const std::string second = std::string(kRubric) + "\n[[criterion]]\nid = \"x\"\ntitle = \"x\"\npoints = 1\ncorrectness = true\n";
  EXPECT_EQ(error_of(second), "my.toml:41: [[criterion]]: 'correctness' is set twice: a rubric has one correctness criterion");
}

TEST(Rubric, TolerancesBelongToTheCorrectnessCriterion) {
  std::string text = kRubric;
  text.insert(text.find("correctness = true") + 18, "\nrelative_tolerance = 1e-7\nabsolute_tolerance = 0.5");
  const Rubric r = parse_rubric(text, "my.toml");
  ASSERT_NE(r.correctness(), nullptr);
  EXPECT_DOUBLE_EQ(r.correctness()->relative_tolerance, 1e-7);
  EXPECT_DOUBLE_EQ(r.correctness()->absolute_tolerance, 0.5);
  EXPECT_DOUBLE_EQ(parse_rubric(kRubric, "my.toml").correctness()->relative_tolerance, 0);   // exact by default
  text = kRubric;
  text.insert(text.find("correctness = true") + 18, "\nrelative_tolerance = -1.0");
  EXPECT_EQ(error_of(text), "my.toml:10: [[criterion]]: 'relative_tolerance' must be 0 or more");
  text = kRubric;
  text.insert(text.find("zero_at = 50.0") + 14, "\nabsolute_tolerance = 1.0");
  EXPECT_EQ(error_of(text), "my.toml:18: [[criterion]]: 'absolute_tolerance' belongs to the correctness criterion");
}

TEST(Scoring, PartialCreditIsLinearBetweenTheThresholdsInEitherDirection) {
  const Rubric r = parse_rubric(kRubric, "my.toml");
  EXPECT_DOUBLE_EQ(partial_credit(r.criteria[1], 100), 1.0);
  EXPECT_DOUBLE_EQ(partial_credit(r.criteria[1], 80), 0.6);
  EXPECT_DOUBLE_EQ(partial_credit(r.criteria[1], 40), 0.0);
  EXPECT_DOUBLE_EQ(partial_credit(r.criteria[1], 120), 1.0);
  EXPECT_DOUBLE_EQ(partial_credit(r.criteria[2], 5), 0.75) << "lower is better: 4 full, 8 none";
  EXPECT_DOUBLE_EQ(partial_credit(r.criteria[2], 3), 1.0);
  EXPECT_DOUBLE_EQ(partial_credit(r.criteria[2], std::nan("")), 0.0);
}

TEST(Scoring, ACorrectSubmissionEarnsPartialCredit) {
  const Rubric r = parse_rubric(kRubric, "my.toml");
  const Score s = score_submission(r, good());
  EXPECT_DOUBLE_EQ(s.total, 40 + 18 + 15 + 10);
  EXPECT_DOUBLE_EQ(s.max_total, 100);
  EXPECT_DOUBLE_EQ(s.criteria[1].points, 18);
  EXPECT_EQ(*s.criteria[1].measured, 80.0);
  const Score again = score_submission(r, good());
  EXPECT_DOUBLE_EQ(again.total, s.total) << "the same outcome, the same score";
}

TEST(Scoring, NothingEarnedAtZeroAtIsZeroNotMinusZero) {
  // gld_transactions_per_request: lower is better, none at 8. (8 - 8) / (4 - 8) is -0.
  const Rubric r = parse_rubric(kRubric, "my.toml");
  SubmissionOutcome o = good();
  o.measured["gld_transactions_per_request"] = 8.0;
  const Score s = score_submission(r, o);
  EXPECT_FALSE(std::signbit(s.criteria[2].points)) << "printed as -0.00 in the feedback";
}

TEST(Scoring, WrongOrUnbuiltSubmissionsSayWhy) {
  const Rubric r = parse_rubric(kRubric, "my.toml");
  SubmissionOutcome wrong = good();
  wrong.correct = false;
  wrong.problem = "call 3: element 17 is 0.5, expected 0.25";
  const Score w = score_submission(r, wrong);
  EXPECT_DOUBLE_EQ(w.total, 0) << "fast but wrong earns nothing";
  EXPECT_EQ(w.criteria[0].note, "call 3: element 17 is 0.5, expected 0.25");
  EXPECT_EQ(w.criteria[1].note, "no points while the results are wrong");
  SubmissionOutcome unbuilt;
  unbuilt.student = "bob";
  const Score u = score_submission(r, unbuilt);
  EXPECT_DOUBLE_EQ(u.total, 0);
  for (const auto& c : u.criteria) EXPECT_EQ(c.note, "the submission did not build");
  SubmissionOutcome unmeasured = good();
  unmeasured.measured.erase("gld_efficiency");
  EXPECT_EQ(score_submission(r, unmeasured).criteria[1].note, "not measured");
}

TEST(Scoring, AFindingAgainstTheMeasurementLeavesOnlyCorrectnessPoints) {
  const Rubric r = parse_rubric(kRubric, "my.toml");
  SubmissionOutcome flagged = good();
  flagged.findings = {"call 4 read 2 MB from DRAM, less than the 64 MB it must read"};
  const Score s = score_submission(r, flagged);
  EXPECT_DOUBLE_EQ(s.total, 40) << "correct, but nothing for what the counters cannot vouch for";
  EXPECT_EQ(s.criteria[1].note, "not scored: call 4 read 2 MB from DRAM, less than the 64 MB it must read");
  EXPECT_FALSE(s.criteria[1].measured);
}

TEST(QuantityTable, EachQuantityIsDefinedWhereItCanBeMeasured) {
  using labbook::QuantityScope;
  const auto is_quantity = [](const char* name, QuantityScope scope) { return labbook::Quantity::find(name, scope).has_value(); };
  // A catalog metric is measured for a lab's range and for a harness call alike.
  EXPECT_TRUE(is_quantity("gld_efficiency", QuantityScope::kRange));
  EXPECT_TRUE(is_quantity("gld_efficiency", QuantityScope::kCall));
  // The reference's share exists only beside a harness call; a lab's bandwidths only for ranges.
  EXPECT_TRUE(is_quantity("speed_pct_of_reference", QuantityScope::kCall));
  EXPECT_FALSE(is_quantity("speed_pct_of_reference", QuantityScope::kRange));
  EXPECT_FALSE(is_quantity("effective_bandwidth", QuantityScope::kCall));
  EXPECT_TRUE(is_quantity("time", QuantityScope::kCall));
  EXPECT_EQ(labbook::closest_quantities("speed_pct_of_referense", QuantityScope::kCall, 1), "speed_pct_of_reference");
}

// Speed earns nothing while the criterion the exercise teaches is short of full marks.
TEST(Scoring, ACriterionCanWaitForAnotherToEarnAllItsPoints) {
  std::string text = kRubric;
  text.insert(text.find("visible = false") + 15, "\nneeds_full = [\"efficiency\"]");
  const Rubric r = parse_rubric(text, "my.toml");
  ASSERT_EQ(r.criteria[3].needs_full, std::vector<std::string>{"efficiency"});
  SubmissionOutcome o = good();
  Score s = score_submission(r, o);
  EXPECT_DOUBLE_EQ(s.criteria[3].points, 0);
  EXPECT_EQ(s.criteria[3].note, "no points until \"Load efficiency\" earns all its points");
  EXPECT_DOUBLE_EQ(*s.criteria[3].measured, 95.0) << "the measurement is still shown";
  o.measured["gld_efficiency"] = 100.0;
  s = score_submission(r, o);
  EXPECT_DOUBLE_EQ(s.criteria[3].points, 10);

  text = kRubric;
  text.insert(text.find("zero_at = 50.0") + 14, "\nneeds_full = [\"bandwidth\"]");
  EXPECT_EQ(error_of(text), "my.toml:18: [[criterion]]: 'needs_full' names 'bandwidth', which is no criterion above this one");
  text = kRubric;
  text.insert(text.find("correctness = true") + 18, "\nneeds_full = [\"correct\"]");
  EXPECT_EQ(error_of(text), "my.toml:10: [[criterion]]: 'needs_full' belongs to a measured criterion");
}
