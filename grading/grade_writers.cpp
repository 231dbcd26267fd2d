#include "grade_writers.h"

#include <algorithm>
#include <cmath>

#include "build_log.h"
#include "format.h"
#include "source_lines.h"
#include "source_lines_table.h"

namespace labbook::grading {

namespace {

/// A CSV field: quoted when it holds a separator, a quote or a line break (RFC 4180).
std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

void by_student(std::vector<Score>& scores) {
  std::sort(scores.begin(), scores.end(), [](const Score& a, const Score& b) { return a.student < b.student; });
}

/// "80.00 (full at 100.00, none at 50.00)" for a measured criterion.
std::string measured_text(const CriterionScore& s) {
  const Criterion& c = *s.criterion;
  if (c.correctness) return s.points > 0 ? "correct" : "not correct";
  if (!s.measured) return "—";
  return report::two_decimals(*s.measured) + " (full at " + report::two_decimals(c.full_at) + ", none at " + report::two_decimals(c.zero_at) + ")";
}

}  // namespace

std::string grades_csv(const Rubric& rubric, std::vector<Score> scores) {
  by_student(scores);
  std::string out = "student,total,max";
  for (const auto& c : rubric.criteria) out += "," + csv_field(c.id);
  out += "\n";
  for (const auto& s : scores) {
    out += csv_field(s.student) + "," + report::two_decimals(s.total) + "," + report::two_decimals(s.max_total);
    for (const auto& c : s.criteria) out += "," + report::two_decimals(c.points);
    out += "\n";
  }
  return out;
}

nlohmann::json grades_json(const Rubric& rubric, std::vector<Score> scores) {
  by_student(scores);
  nlohmann::json out = {{"exercise", rubric.exercise}, {"max", rubric.max_points()}, {"students", nlohmann::json::array()}};
  for (const auto& s : scores) {
    nlohmann::json row = {{"student", s.student}, {"total", s.total}, {"criteria", nlohmann::json::object()}};
    for (const auto& c : s.criteria) {
      nlohmann::json one = {{"points", c.points}, {"max", c.criterion->points}, {"note", c.note}};
      if (c.measured) one["measured"] = *c.measured;
      row["criteria"][c.criterion->id] = one;
    }
    out["students"].push_back(row);
  }
  return out;
}

nlohmann::json score_json(const Score& score, const SubmissionOutcome& outcome) {
  nlohmann::json j = {{"student", score.student}, {"total", score.total}, {"max", score.max_total},
                      {"built", outcome.built}, {"problem", outcome.problem}, {"criteria", nlohmann::json::array()}};
  if (outcome.correct) j["correct"] = *outcome.correct;
  if (!outcome.findings.empty()) j["findings"] = outcome.findings;
  if (!outcome.observations.empty()) j["observations"] = outcome.observations;
  if (const auto& m = outcome.memcheck) {
    j["memcheck"] = {{"errors", m->errors}, {"accesses", m->accesses}};
    if (!m->not_run.empty()) j["memcheck"]["not_run"] = m->not_run;
  }
  for (const auto& c : score.criteria) {
    nlohmann::json one = {{"id", c.criterion->id}, {"points", c.points}, {"note", c.note}};
    if (c.measured) one["measured"] = *c.measured;
    j["criteria"].push_back(one);
  }
  return j;
}

Score score_from_json(const Rubric& rubric, const nlohmann::json& j) {
  Score s;
  s.student = j.at("student").get<std::string>();
  for (const auto& c : rubric.criteria) {
    CriterionScore cs;
    cs.criterion = &c;
    for (const auto& saved : j.at("criteria"))
      if (saved.at("id") == c.id) {
        cs.points = saved.at("points").get<double>();
        cs.note = saved.value("note", "");
        if (saved.contains("measured")) cs.measured = saved["measured"].get<double>();
      }
    s.total += cs.points;
    s.max_total += c.points;
    s.criteria.push_back(cs);
  }
  s.total = std::round(s.total * 100.0) / 100.0;
  return s;
}

nlohmann::json gradescope_results(const Score& score) {
  nlohmann::json tests = nlohmann::json::array();
  for (const auto& c : score.criteria) {
    std::string output = measured_text(c);
    if (!c.note.empty()) output += ": " + c.note;
    tests.push_back({{"name", c.criterion->title}, {"score", c.points}, {"max_score", c.criterion->points},
                     {"output", output}, {"visibility", c.criterion->visible ? "visible" : "hidden"}});
  }
  return {{"score", score.total}, {"tests", tests}};
}

namespace {

/// The student's own lines that move memory, worst first (an exercise with source_lines), with
/// what the worst one's numbers mean.
void add_hot_lines(report::Sheet& sheet, const std::vector<SassInstruction>& instructions) {
  using report::Text;
  if (instructions.empty()) return;
  const report::SourceProfile profile = report::source_profile(instructions);
  if (profile.lines.empty()) return;
  sheet.heading(2, "Your kernel, line by line");
  sheet.lines({Text("What each line of your kernel moved over all the calls of the run (the checked ones too: "
                    "CUPTI counts a kernel once per run, summed over its launches), counted per instruction by CUPTI "
                    "(feedback only: it changes no score). A request is one warp instruction; a sector is 32 bytes; "
                    "the ideal is the fewest sectors that carry the same bytes.")});
  sheet.table(report::source_lines_table(profile, 5));
  if (const std::string why = report::source_line_explanation(profile.lines.front(), profile.excess_sectors); !why.empty())
    sheet.lines({Text{report::strong(profile.lines.front().where() + ":"), {" " + why}}});
}

}  // namespace

namespace {

/// The errors of a failed build first (demangled, build_log.h), then the compiler's whole output.
void add_compiler_output(report::Sheet& sheet, const std::string& log, bool failed) {
  if (log.empty()) return;
  if (failed) {
    sheet.heading(2, "Errors");
    std::vector<report::Text> lines;
    for (const auto& e : build_errors(log)) lines.push_back({e});
    sheet.list(std::move(lines));
  }
  sheet.heading(2, "Compiler output");
  sheet.code(log);
}

}  // namespace

report::Sheet feedback_sheet(const Rubric& rubric, const Score& score, const SubmissionOutcome& outcome,
                             bool for_instructor) {
  using report::Text;
  report::Sheet sheet;
  sheet.title = rubric.title + " — " + score.student;
  sheet.heading(1, sheet.title);
  double shown_total = 0, shown_max = 0;
  report::Table t{{"Criterion", "Points", "Measured", "Why"}, {}};
  std::vector<Text> hints;
  for (const auto& c : score.criteria) {
    if (!c.criterion->visible && !for_instructor) continue;
    shown_total += c.points;
    shown_max += c.criterion->points;
    const std::string name = c.criterion->title + (c.criterion->visible ? "" : " (instructor only)");
    t.rows.push_back({name, report::two_decimals(c.points) + " / " + report::two_decimals(c.criterion->points), measured_text(c), c.note});
    // A hint is the rubric author's Markdown: its code spans read as code.
    if (c.points < c.criterion->points && !c.criterion->hint.empty())
      hints.push_back({c.criterion->title + ": ", report::authored(c.criterion->hint)});
  }
  sheet.lines({Text{report::strong("Score:"), {" " + report::two_decimals(shown_total) + " / " + report::two_decimals(shown_max)}}});
  sheet.table(std::move(t));
  // feedback.json says what feedback.md says: a student's holds the visible criteria alone.
  sheet.data = score_json(score, outcome);
  if (!for_instructor) {
    nlohmann::json shown = nlohmann::json::array();
    for (const auto& c : score.criteria)
      if (c.criterion->visible)
        for (const auto& saved : sheet.data["criteria"])
          if (saved["id"] == c.criterion->id) shown.push_back(saved);
    sheet.data["criteria"] = std::move(shown);
    sheet.data["total"] = std::round(shown_total * 100.0) / 100.0;
    sheet.data["max"] = shown_max;
  }
  if (!outcome.findings.empty()) {
    // Why the measured criteria earned nothing: what the counters and the harness saw.
    sheet.heading(2, "Why the measured criteria were not scored");
    std::vector<Text> findings;
    for (const auto& f : outcome.findings) findings.push_back({f});
    sheet.list(std::move(findings));
  }
  if (!outcome.observations.empty()) {
    // A host-code exercise: what the trace saw, so that the student sees why the time is what it is.
    sheet.heading(2, "What your host code did, as the trace saw it");
    std::vector<Text> seen;
    for (const auto& s : outcome.observations) seen.push_back({s});
    sheet.list(std::move(seen));
  }
  if (const auto& m = outcome.memcheck) {
    sheet.heading(2, "Memory check (compute-sanitizer)");
    if (!m->not_run.empty()) {
      sheet.lines({Text("Not run: " + m->not_run + ".")});
    } else if (m->errors == 0) {
      sheet.lines({Text("No out-of-bounds or misaligned access and no CUDA API error in one run of every call.")});
    } else {
      sheet.lines({Text(std::to_string(m->errors) + (m->errors == 1 ? " error" : " errors") +
                         ": an access outside the buffers can pass every result check and still overwrite memory "
                         "that belongs to someone else. The sanitizer's own words:")});
      std::string text;
      for (const auto& a : m->accesses) text += a + "\n";
      sheet.code(text);
    }
  }
  add_hot_lines(sheet, outcome.instructions);
  if (!hints.empty()) {
    sheet.heading(2, "Hints");
    sheet.list(std::move(hints));
  }
  // The compiler's or checker's own words, where they explain the score.
  if (!outcome.built && outcome.problem.empty()) add_compiler_output(sheet, outcome.build_log, true);
  return sheet;
}

report::Sheet build_feedback_sheet(const Rubric& rubric, const std::string& student, const SubmissionOutcome& outcome) {
  using report::Text;
  report::Sheet sheet;
  sheet.title = rubric.title + " — " + student + " (build only)";
  sheet.heading(1, sheet.title);
  const std::string status = !outcome.problem.empty() ? "Refused: " + outcome.problem
                             : outcome.built ? "Builds, and passes the check of what it may call. Nothing was run: "
                                               "the score comes from a graded run on a GPU."
                                             : "Does not build.";
  sheet.lines({Text{report::strong("Build:"), {" " + status}}});
  sheet.data = {{"student", student}, {"built", outcome.built}, {"problem", outcome.problem}};
  add_compiler_output(sheet, outcome.build_log, !outcome.built && outcome.problem.empty());
  return sheet;
}

}  // namespace labbook::grading
