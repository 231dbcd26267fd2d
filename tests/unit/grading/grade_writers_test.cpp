// What grading writes, for a small class: the CSV and JSON tables (stable columns, rows by
// student), Gradescope's results.json (hidden criteria hidden), and the feedback sheet.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>


#include "class_summary.h"
#include "markdown_tables.h"
#include "grade_writers.h"
#include "json_writer.h"
#include "html_writer.h"
#include "markdown_writer.h"
#include "rubric.h"

using namespace labbook::grading;

namespace {
const char* kFeedbackRubric = R"([rubric]
exercise = "lab4-misaligned"
title = "Fix the misaligned read"

[[criterion]]
id = "correct"
title = "Correct results"
points = 40
correctness = true

[[criterion]]
id = "efficiency"
title = "Load efficiency"
points = 40
measure = "gld_efficiency"
full_at = 100.0
zero_at = 50.0
hint = "Align each warp's first address to 32 bytes (`cudaMalloc` does)."

[[criterion]]
id = "bandwidth"
title = "Bandwidth"
points = 20
measure = "speed_pct_of_reference"
full_at = 90
zero_at = 30
visible = false
)";

struct Class {
  Rubric rubric = parse_rubric(kFeedbackRubric, "r.toml");
  SubmissionOutcome ada, bob;
  std::vector<Score> scores;
  Class() {
    ada.student = "ada";
    ada.built = true;
    ada.correct = true;
    ada.measured = {{"gld_efficiency", 80.0}, {"speed_pct_of_reference", 60.0}};
    bob.student = "bob, jr";   // a comma: quoted in the CSV
    bob.build_log = "k.cu(3): error: expected a \";\"\n```not a fence end\n";
    scores = {score_submission(rubric, bob), score_submission(rubric, ada)};
  }
};
}  // namespace

TEST(GradeWriters, CsvHasStableColumnsAndQuotesFields) {
  const Class c;
  EXPECT_EQ(grades_csv(c.rubric, c.scores),
            "student,total,max,correct,efficiency,bandwidth\n"
            "ada,74.00,100.00,40.00,24.00,10.00\n"
            "\"bob, jr\",0.00,100.00,0.00,0.00,0.00\n");
  const auto json = grades_json(c.rubric, c.scores);
  EXPECT_EQ(json["students"][0]["student"], "ada");
  EXPECT_EQ(json["students"][0]["criteria"]["efficiency"]["measured"], 80.0);
  EXPECT_EQ(json["students"][1]["criteria"]["correct"]["note"], "the submission did not build");
}

TEST(GradeWriters, GradescopeResultsHideTheInstructorsCriteria) {
  const Class c;
  const auto r = gradescope_results(c.scores[1]);
  EXPECT_EQ(r["score"], 74.0);
  ASSERT_EQ(r["tests"].size(), 3u);
  EXPECT_EQ(r["tests"][1]["name"], "Load efficiency");
  EXPECT_EQ(r["tests"][1]["max_score"], 40.0);
  EXPECT_EQ(r["tests"][1]["output"], "80.00 (full at 100.00, none at 50.00)");
  EXPECT_EQ(r["tests"][1]["visibility"], "visible");
  EXPECT_EQ(r["tests"][2]["visibility"], "hidden");
}

TEST(GradeWriters, FeedbackShowsVisibleCriteriaHintsAndTheCompilerOutput) {
  const Class c;
  const auto ada = feedback_sheet(c.rubric, c.scores[1], c.ada, false);
  const std::string md = labbook::report::to_markdown(ada);
  labbook::report::validate_markdown(ada, md);
  EXPECT_NE(md.find("**Score:** 64.00 / 80.00"), std::string::npos) << md;
  EXPECT_EQ(md.find("Bandwidth"), std::string::npos) << "hidden from the student";
  EXPECT_NE(md.find("Align each warp's first address"), std::string::npos) << "a hint below full marks";
  EXPECT_NE(labbook::report::html_body(ada).find("<code>cudaMalloc</code>"), std::string::npos) << "a hint's code span";
  const std::string instructor = labbook::report::to_markdown(feedback_sheet(c.rubric, c.scores[1], c.ada, true));
  EXPECT_NE(instructor.find("Bandwidth (instructor only)"), std::string::npos);
  EXPECT_NE(instructor.find("**Score:** 74.00 / 100.00"), std::string::npos);
  // feedback.json holds what feedback.md shows, never null.
  const nlohmann::json student_json = labbook::report::sheet_json(feedback_sheet(c.rubric, c.scores[1], c.ada, false));
  const nlohmann::json instructor_json = labbook::report::sheet_json(feedback_sheet(c.rubric, c.scores[1], c.ada, true));
  EXPECT_EQ(instructor_json["criteria"].size(), c.rubric.criteria.size());
  EXPECT_EQ(student_json["criteria"].size(), c.rubric.criteria.size() - 1) << "the hidden criterion is left out";
  EXPECT_LT(student_json["max"].get<double>(), instructor_json["max"].get<double>());

  const auto bob = feedback_sheet(c.rubric, c.scores[0], c.bob, false);
  const std::string html = labbook::report::html_body(bob);
  EXPECT_NE(html.find("```not a fence end"), std::string::npos) << "the log stays inside its code block:\n" << html;
  EXPECT_NE(html.find("expected a &quot;;&quot;"), std::string::npos) << html;
}

TEST(GradeWriters, FeedbackSaysWhyAMeasurementWasNotScored) {
  Class c;
  c.ada.findings = {"call student/n=8192/2 ran no kernel: its results were made elsewhere (host code or copies)"};
  const Score s = score_submission(c.rubric, c.ada);
  const std::string md = labbook::report::to_markdown(feedback_sheet(c.rubric, s, c.ada, false));
  EXPECT_NE(md.find("## Why the measured criteria were not scored\n\n- call student/n=8192/2 ran no kernel"), std::string::npos)
      << md;
  EXPECT_EQ(score_json(s, c.ada)["findings"][0], c.ada.findings[0]);
  EXPECT_FALSE(score_json(c.scores[1], Class().ada).contains("findings"));
}

TEST(GradeWriters, FeedbackShowsTheMemcheckPassWithoutChangingTheScore) {
  Class c;
  const Score before = score_submission(c.rubric, c.ada);
  c.ada.memcheck = labbook::grading::MemcheckReport{"", 1, {"Invalid __global__ write of size 4 bytes\n  Address 0x10 is out of bounds"}};
  const Score s = score_submission(c.rubric, c.ada);
  EXPECT_EQ(s.total, before.total);
  const auto sheet = feedback_sheet(c.rubric, s, c.ada, false);
  const std::string md = labbook::report::to_markdown(sheet);
  labbook::report::validate_markdown(sheet, md);
  EXPECT_NE(md.find("## Memory check (compute-sanitizer)\n\n1 error: "), std::string::npos) << md;
  EXPECT_NE(md.find("```\nInvalid __global__ write of size 4 bytes\n  Address 0x10 is out of bounds\n```"), std::string::npos) << md;
  EXPECT_EQ(score_json(s, c.ada)["memcheck"]["errors"], 1);

  c.ada.memcheck = labbook::grading::MemcheckReport{"its own runs were stopped by a limit", 0, {}};
  const std::string skipped = labbook::report::to_markdown(feedback_sheet(c.rubric, s, c.ada, false));
  EXPECT_NE(skipped.find("Not run: its own runs were stopped by a limit."), std::string::npos) << skipped;
  EXPECT_EQ(labbook::report::to_markdown(feedback_sheet(c.rubric, s, Class().ada, false)).find("Memory check"), std::string::npos)
      << "nothing without --memcheck";
}

TEST(GradeWriters, ClassSummaryCountsScoresAndReasons) {
  const Class c;
  const auto sheet = class_summary(c.rubric, c.scores);
  const std::string md = labbook::report::to_markdown(sheet);
  labbook::report::validate_markdown(sheet, md);
  EXPECT_NE(md.find("2 submissions graded; median score 74.00 of 100.00."), std::string::npos) << md;
  EXPECT_NE(md.find("| the submission did not build | 1 |"), std::string::npos) << md;
  // A measured criterion below full marks has no note: its title is the reason.
  EXPECT_NE(md.find("| Load efficiency: below full marks | 1 |"), std::string::npos) << md;
  EXPECT_NE(md.find("| Bandwidth: below full marks | 1 |"), std::string::npos) << md;
  ASSERT_EQ(sheet.figures.size(), 1u);
  const std::string& svg = sheet.figures[0].svg;
  EXPECT_NE(svg.find(">70–80</text>"), std::string::npos);
  // One student in the 0-10 bin and one in 70-80: two bars of full height.
  std::size_t full = 0;
  for (std::size_t at = svg.find("height=\"160.0\""); at != std::string::npos; at = svg.find("height=\"160.0\"", at + 1)) ++full;
  EXPECT_EQ(full, 2u);
}

// A hint is Markdown: every lab's may hold code spans, never an emphasis or a link that its
// author did not mean (`__restrict__` unquoted reads as a bold "restrict").
TEST(GradeWriters, EveryLabsHintsRenderAsWritten) {
  int hints = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(std::string(LABBOOK_SOURCE_DIR) + "/labs")) {
    if (entry.path().filename() != "rubric.toml") continue;
    for (const auto& c : labbook::grading::load_rubric(entry.path().string()).criteria) {
      if (c.hint.empty()) continue;
      ++hints;
      const std::string html = labbook::report::inline_html({labbook::report::authored(c.hint)});
      for (const char* tag : {"<em>", "<strong>", "<a ", "<del>", "<img"})
        EXPECT_EQ(html.find(tag), std::string::npos) << entry.path() << ", " << c.id << ": " << html;
    }
  }
  EXPECT_GT(hints, 8) << "the labs' rubrics were not found";
}

// docs/example-feedback/feedback.md, a real grade shown to instructors without a GPU, must keep
// the exercise's visible criteria, with their points, as the rubric gives them.
TEST(GradeWriters, ExampleFeedbackMatchesRubric) {
  const std::string root = LABBOOK_SOURCE_DIR;
  const Rubric rubric = labbook::grading::load_rubric(root + "/labs/04_global_memory/exercises/soa/rubric.toml");
  std::ifstream in(root + "/docs/example-feedback/feedback.md");
  ASSERT_TRUE(in) << "docs/example-feedback/feedback.md is missing";
  const std::string example((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(example.find("# " + rubric.title + " — "), std::string::npos) << "the exercise's title";
  char points[32];
  for (const auto& c : rubric.criteria) {
    std::snprintf(points, sizeof points, " / %.2f |", c.points);
    const std::size_t row = example.find("| " + c.title + " | ");
    if (!c.visible) {
      EXPECT_EQ(row, std::string::npos) << c.title << " is hidden from students";
      continue;
    }
    ASSERT_NE(row, std::string::npos) << c.title;
    EXPECT_NE(example.substr(row, example.find('\n', row) - row).find(points), std::string::npos) << c.title << points;
  }
}
