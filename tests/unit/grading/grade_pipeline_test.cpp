// A whole class through grading's pipeline (grading/grade_pipeline.h) on a fake toolchain and
// a fake runner, no GPU and no compiler: each submission's text names what its "program" does
// (builds or not, is refused, answers right or wrong, times out, crashes, forges records), the
// fake runner plays it as the harness and the collector would, and the scores and reasons
// that come out are those labbook must give.
#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "build_log.h"
#include "exercise_checks.h"
#include "grade_pipeline.h"
#include "harness_records.h"
#include "labbook/model/atomic_file.h"
#include "labbook/model/error.h"
#include "labbook/model/measurement_json.h"

using namespace labbook;
using namespace labbook::grading;
namespace fs = std::filesystem;

namespace {

const std::string kFixture = std::string(LABBOOK_SOURCE_DIR) + "/tests/unit/grading/fixtures/grade_pipeline";

/// The submission's behaviour: its text, one word.
std::string behaviour(const std::string& work) {
  std::ifstream in(work + "/submission.cu");
  std::string word;
  in >> word;
  return word;
}

class FakeToolchain : public Toolchain {
 public:
  Build build(const Exercise&, const std::string& work) override {
    if (behaviour(work) == "nocompile") return {false, "submission.cu(3): error: expected a ';'"};
    std::ofstream(work + "/harness") << "built";
    return {true, ""};
  }
  std::string refusal(const Exercise&, const std::string& work, const std::string&) override {
    return behaviour(work) == "refused" ? "the submission calls fopen, which this exercise does not allow." : "";
  }
  std::vector<std::pair<std::string, std::string>> environment(const std::string& home) const override {
    return {{"HOME", home}};
  }
  std::vector<std::string> run_paths() const override { return {}; }
};

/// Plays the harness (its records, protocol 2) and the collector (a measurement through the
/// second channel) for each behaviour.
class FakeRunner : public Runner {
 public:
  std::map<std::string, int> runs;   // per student work folder
  std::string source_nvtx;   // the NVTX globs a source run was given
  int metrics_runs = 0, carried_all = 0;   // metrics runs; of them, told all metrics may be one carried group

  SandboxResult run(const SandboxRequest& r) override {
    const std::string work = fs::path(r.command.at(0)).parent_path().string();
    const std::string what = behaviour(work);
    const int run = runs[work]++;
    std::uint64_t seed = 0;
    for (std::size_t i = 0; i + 1 < r.command.size(); ++i)
      if (r.command[i] == "--seed") seed = std::stoull(r.command[i + 1]);
    SandboxResult result;
    result.end = SandboxResult::End::Exited;
    result.exit_code = 0;
    result.seconds = 1;
    if (what == "timeout") {
      result.end = SandboxResult::End::TimedOut;
      result.seconds = 60;
      return result;
    }
    if (what == "crash") {
      result.end = SandboxResult::End::Signalled;
      result.signal = SIGSEGV;
    }
    bool source_run = false;
    for (const auto& [key, value] : r.env) {
      source_run = source_run || (key == "LABBOOK_MODE" && value == "source");
      if (key == "LABBOOK_NVTX" && !value.empty()) source_nvtx = value;
      metrics_runs += key == "LABBOOK_MODE" && value == "metrics";
      carried_all += key == "LABBOOK_WITHOUT_STOPS" && value == "1";
    }
    result.channels = {records(what, seed, run), measurement(what, source_run ? work + "/submission.cu" : "")};
    return result;
  }

 private:
  static void output(std::string& s, std::uint64_t seed, std::uint64_t n, bool right) {
    const auto in = lab::add_constants_inputs(seed, n, 1);
    std::vector<float> out(n);
    for (std::uint64_t i = 0; i < n; ++i) out[i] = right ? in[0][i] + 1.0f : in[0][i];
    s += "{\"output\": " + std::to_string(seed) + ", \"shape\": [" + std::to_string(n) + "], \"bytes\": " +
         std::to_string(4 * n) + "}\n";
    s.append(reinterpret_cast<const char*>(out.data()), 4 * n);
  }

  static std::string records(const std::string& what, std::uint64_t base, int run) {
    if (what == "forged_v1") return "{\"version\": 1, \"correct\": true, \"problem\": \"\", \"calls\": [], \"flags\": []}\n";
    if (what == "setup_failed" || (what == "setup_failed_later" && run > 0)) return "{\"labbook_harness\": 2}\n{\"setup_failed\": \"seccomp_load: Invalid argument\"}\n";
    const bool right = what != "wrong" && !(what == "wrong_later" && run > 0);
    std::string s = "{\"labbook_harness\": 2}\n";
    std::uint64_t k = 0;
    const auto seed = [&] { return what == "same_seed" ? base * 1000 + 1 : base * 1000 + ++k; };
    s += "{\"call\": \"student/n=100\", \"seconds\": 0.0001}\n";
    output(s, seed(), 100, right);
    for (int i = 1; i <= 2; ++i) {
      s += "{\"call\": \"student/n=64/" + std::to_string(i) + "\", \"seconds\": 0.0001}\n";
      output(s, seed(), 64, right);
      if (what == "early_exit") return s;
      s += "{\"call\": \"reference/n=64/" + std::to_string(i) + "\", \"seconds\": 0.0001}\n";
      if (what == "reference_output") output(s, seed(), 64, true);
      else seed();
    }
    if (what == "extra_output") output(s, base * 1000 + 99, 64, true);
    s += "{\"end\": true}\n";
    if (what == "after_end") s += "{\"end\": true}\n";
    return s;
  }

  /// `source`: the student's file, for a source run's per-instruction counts ("" otherwise):
  /// its line 1 loads 5 sectors per request where 4 would do.
  static std::string measurement(const std::string& what, const std::string& source) {
    if (what == "no_measurement") return "";
    Measurement m;
    std::uint64_t t = 1000;
    const auto kernel = [&](const std::string& range, std::uint64_t ns) {
      Kernel k;
      k.launch = m.kernels.size();
      k.name = k.mangled = range.rfind("student", 0) == 0 ? "add_one" : "reference";
      k.range = range;
      k.start_ns = t;
      k.end_ns = t + ns;
      t += 10 * ns;
      // As the collector gives them: the student's kernel counted over its 3 launches, the sums
      // kept with the first.
      if (!source.empty() && k.name == "add_one" && m.program.source_kernels.empty()) {
        m.program.source_kernels = {"add_one"};
        k.sass_launches = 3;
        k.sass = {{"add_one", 0x80, source, 1,
                   {{"smsp__sass_inst_executed", 100}, {"smsp__sass_sectors_mem_global", 500},
                    {"smsp__sass_sectors_mem_global_ideal", 400}, {"smsp__sass_inst_executed_op_global_ld", 100}}}};
      }
      m.kernels.push_back(k);
    };
    kernel("student/n=100", 1000);
    if (what == "copies_home") {
      Copy c;
      c.kind = CopyKind::DeviceToHost;
      c.bytes = 256;
      c.range = "student/n=100";
      m.copies.push_back(c);
    }
    for (int i = 1; i <= 2; ++i) {
      kernel("student/n=64/" + std::to_string(i), 1000);
      kernel("reference/n=64/" + std::to_string(i), 900);
    }
    return measurement_text(m);
  }
};

class GradePipeline : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("labbook-grade-pipeline-" + std::to_string(::getpid()));
    fs::remove_all(root_);
    fs::create_directories(root_ / "submissions");
    settings_.exercise = load_exercise(kFixture + "/exercise.toml");
    settings_.rubric = load_rubric(kFixture + "/rubric.toml");
    settings_.out_dir = (root_ / "grades").string();
    settings_.collector = "libcupti-collector.so";   // named in the runs' environment; the fake runner loads nothing
  }
  void TearDown() override { fs::remove_all(root_); }

  void submit(const std::string& student, const std::string& what) {
    std::ofstream(root_ / "submissions" / (student + ".cu")) << what << "\n";
  }
  std::vector<Graded> grade() {
    return grade_class(settings_, find_submissions((root_ / "submissions").string(), settings_.exercise), toolchain_, runner_);
  }
  const Graded& of(const std::vector<Graded>& graded, const std::string& student) {
    for (const auto& g : graded)
      if (g.submission.student == student) return g;
    throw std::runtime_error("no " + student);
  }

  fs::path root_;
  ClassSettings settings_;
  FakeToolchain toolchain_;
  FakeRunner runner_;
};

TEST_F(GradePipeline, GradesAWholeClassEachWithItsReason) {
  const std::map<std::string, std::pair<double, std::string>> want = {
      {"honest", {100, ""}},
      {"nocompile", {0, ""}},
      {"refused", {0, "calls fopen"}},
      {"wrong", {0, "call 1 (n = 100): y[0] is"}},
      {"wrong_later", {0, "call 1 (n = 100): y[0] is"}},
      {"timeout", {0, "the program was stopped after 60 s (time limit)"}},
      {"crash", {0, "the program was killed by SIGSEGV"}},
      {"forged_v1", {0, "not labbook's harness protocol 2"}},
      {"early_exit", {0, "stopped after 2 of the exercise's 3 calls"}},
      {"extra_output", {0, "not to be trusted"}},
      {"after_end", {0, "records after its last"}},
      {"same_seed", {0, "inputs labbook did not ask for"}},
      {"no_measurement", {50, ""}},
      {"copies_home", {0, "copied data from the device to the host"}},
      {"reference_output", {0, "no call of the student's just before it"}},
  };
  for (const auto& [student, expected] : want) submit(student, student);
  const auto graded = grade();
  ASSERT_EQ(graded.size(), want.size());
  for (const auto& [student, expected] : want) {
    const Graded& g = of(graded, student);
    EXPECT_TRUE(g.labbook_error.empty()) << student << ": " << g.labbook_error;
    EXPECT_DOUBLE_EQ(g.score.total, expected.first) << student << ": " << g.outcome.problem;
    EXPECT_NE(g.outcome.problem.find(expected.second), std::string::npos) << student << ": " << g.outcome.problem;
    EXPECT_TRUE(fs::exists(settings_.out_dir + "/" + student + "/score.json")) << student;
  }
  EXPECT_TRUE(*of(graded, "honest").outcome.correct);
  EXPECT_NE(of(graded, "nocompile").outcome.build_log.find("expected a ';'"), std::string::npos);
  // A graded class keeps every build's log too: the verdict on it, then the compiler's words.
  EXPECT_EQ(read_file(settings_.out_dir + "/honest/build.log").rfind("builds", 0), 0u);
  EXPECT_EQ(read_file(settings_.out_dir + "/refused/build.log").rfind("refused: the submission calls fopen", 0), 0u);
  // Every run of the program is judged: right in the trace run, wrong in the metrics run.
  EXPECT_EQ(runner_.runs[settings_.out_dir + "/wrong_later/work"], 2);
  // Student code may not create files, so no counters are carried from run to run: all
  // metrics as one carried group would lose them all.
  EXPECT_GT(runner_.metrics_runs, 0);
  EXPECT_EQ(runner_.carried_all, 0);
  // The measurement came through the pipe into labbook's own folder, not the program's.
  EXPECT_TRUE(fs::exists(settings_.out_dir + "/honest/labbook/trace-run.json"));
  EXPECT_FALSE(fs::exists(settings_.out_dir + "/honest/run/trace-run.json"));
}

TEST_F(GradePipeline, AHostCodeExercisesCopiesAreItsWorkAndItsFeedbackSaysWhatTheTraceSaw) {
  // Labs 2 and 8: copying results home is what the student's host code must do, not a sign of
  // work done off the GPU; a call that does not carry its input up and its output back is a
  // finding instead, and what the trace saw goes to the feedback.
  settings_.exercise.host_code = true;
  submit("copies_home", "copies_home");
  const auto graded = grade();
  const Graded& g = graded.front();
  EXPECT_TRUE(*g.outcome.correct) << g.outcome.problem;
  ASSERT_FALSE(g.outcome.findings.empty());
  EXPECT_NE(g.outcome.findings.front().find("to the GPU, less than its"), std::string::npos) << g.outcome.findings.front();
  ASSERT_FALSE(g.outcome.observations.empty());
  EXPECT_NE(g.outcome.observations.front().find("between host and GPU"), std::string::npos);
  std::ifstream feedback(settings_.out_dir + "/copies_home/feedback.md");
  const std::string text((std::istreambuf_iterator<char>(feedback)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("What your host code did, as the trace saw it"), std::string::npos);
}

TEST_F(GradePipeline, AnExerciseWithSourceLinesShowsTheStudentsOwnLines) {
  submit("honest", "honest");
  settings_.exercise.source_lines = false;
  grade();
  EXPECT_EQ(read_file(settings_.out_dir + "/honest/feedback.md").find("line by line"), std::string::npos);
  const int runs_without = runner_.runs[settings_.out_dir + "/honest/work"];

  settings_.exercise.source_lines = true;
  settings_.force = true;
  runner_.runs.clear();
  const auto graded = grade();
  EXPECT_EQ(runner_.runs[settings_.out_dir + "/honest/work"], runs_without + 1) << "one more run: the source run";
  EXPECT_DOUBLE_EQ(of(graded, "honest").score.total, 100) << "feedback only: the score is the same";
  // The student's kernel's instructions (launched in the measured calls), not the reference's:
  // the source run counts the kernels of the student's calls alone.
  EXPECT_EQ(of(graded, "honest").outcome.instructions.size(), 1u);
  EXPECT_EQ(runner_.source_nvtx, "student");
  const std::string feedback = read_file(settings_.out_dir + "/honest/feedback.md");
  EXPECT_NE(feedback.find("## Your kernel, line by line"), std::string::npos) << feedback;
  EXPECT_NE(feedback.find("submission.cu:1"), std::string::npos) << feedback;
  EXPECT_NE(feedback.find("5.00"), std::string::npos) << "sectors per request" << feedback;
  EXPECT_NE(feedback.find("where 4.00 would carry the same bytes"), std::string::npos) << feedback;
}

TEST_F(GradePipeline, LabbooksOwnTroubleLeavesTheStudentUngradedToBeTriedAgain) {
  // In the program's own run, or in a metrics run after it (which the session alone would
  // take for lost metrics, and grade the student on what was left).
  for (const std::string student : {"setup_failed", "setup_failed_later"}) {
    submit(student, student);
    const auto graded = grade();
    EXPECT_NE(of(graded, student).labbook_error.find("seccomp_load"), std::string::npos) << student;
    EXPECT_FALSE(fs::exists(settings_.out_dir + "/" + student + "/score.json")) << student;
  }
}

TEST_F(GradePipeline, ARunAgainSkipsWhoIsGradedAndForceGradesAgain) {
  submit("honest", "honest");
  submit("wrong", "wrong");
  const auto first = grade();
  const auto again = grade();
  EXPECT_TRUE(of(again, "honest").graded_before);
  EXPECT_DOUBLE_EQ(of(again, "honest").score.total, of(first, "honest").score.total);
  EXPECT_DOUBLE_EQ(of(again, "wrong").score.total, 0);
  settings_.force = true;
  EXPECT_FALSE(of(grade(), "honest").graded_before);
}

TEST_F(GradePipeline, BuildOnlyRunsNothing) {
  submit("honest", "honest");
  submit("nocompile", "nocompile");
  settings_.build_only = true;
  const auto graded = grade();
  EXPECT_TRUE(of(graded, "honest").outcome.built);
  EXPECT_FALSE(of(graded, "nocompile").outcome.built);
  EXPECT_TRUE(runner_.runs.empty());
  EXPECT_FALSE(fs::exists(settings_.out_dir + "/honest/score.json"));
  // Each student's whole build output is kept, for the instructor and the student.
  EXPECT_EQ(read_file(settings_.out_dir + "/nocompile/build.log"), "does not build\n" + of(graded, "nocompile").outcome.build_log);
  EXPECT_EQ(read_file(settings_.out_dir + "/honest/build.log").rfind("builds", 0), 0u);
  // And the feedback a graded run writes, without a score: the errors first.
  const std::string feedback = read_file(settings_.out_dir + "/nocompile/feedback.md");
  EXPECT_NE(feedback.find("Does not build"), std::string::npos) << feedback;
  EXPECT_NE(feedback.find("- submission.cu(3): error: expected a"), std::string::npos) << feedback;
  EXPECT_NE(read_file(settings_.out_dir + "/honest/feedback.md").find("Builds"), std::string::npos);
  EXPECT_TRUE(fs::exists(settings_.out_dir + "/honest/instructor.html"));
  EXPECT_FALSE(fs::exists(settings_.out_dir + "/.grading-secret")) << "a build draws no inputs";
}

TEST(BuildLog, TheErrorsNotTheFirstLine) {
  // ld's first line says where; the error is on the next.
  const std::string ld = "/usr/bin/ld: submission.o: in function `main':\n"
                         "submission.cu:(.text+0x0): multiple definition of `main'; harness.o:(.text+0x0): first defined here\n"
                         "collect2: error: ld returned 1 exit status\n";
  const auto lines = build_errors(ld);
  ASSERT_EQ(lines.size(), 2u) << "the tally \"ld returned 1 exit status\" says nothing new";
  EXPECT_NE(lines[0].find("in function"), std::string::npos);
  EXPECT_NE(lines[1].find("multiple definition of `main'"), std::string::npos);
  EXPECT_EQ(build_errors("a warning only\nsecond line\n"), std::vector<std::string>{"a warning only"});
  std::string many;
  for (int i = 0; i < 10; ++i) many += "submission.cu(" + std::to_string(i) + "): error: x\n";
  const auto cut = build_errors(many, 4);
  ASSERT_EQ(cut.size(), 4u);
  EXPECT_EQ(cut.back(), "(and 7 more lines)");
  // nvlink names what is missing as the object does; the student wrote helper(float).
  EXPECT_EQ(build_errors("nvlink error   : Undefined reference to '_Z6helperf' in 'submission.o'\n"),
            std::vector<std::string>{"nvlink error   : Undefined reference to 'helper(float)' in 'submission.o'"});
  EXPECT_EQ(build_errors("_Z6helperf: error: my_Z6helperf\n"), std::vector<std::string>{"helper(float): error: my_Z6helperf"})
      << "only a word that starts with _Z is a mangled name";
}

TEST(HarnessRecords, TheStudentsOwnVerdictCountsForNothing) {
  const Exercise e = load_exercise(kFixture + "/exercise.toml");
  // A stream that only says "correct", in any form, has no outputs to check.
  for (const std::string forged : {"{\"labbook_harness\": 2}\n{\"end\": true}\n", "{\"labbook_harness\": 2}\n{\"correct\": true}\n{\"end\": true}\n", ""}) {
    const HarnessResult r = judge_harness_records(forged, e, 7, {});
    EXPECT_FALSE(r.correct) << forged;
    EXPECT_FALSE(r.problem.empty());
  }
}

TEST(HarnessRecords, RecordsOfTheWrongTypesAreJudgedNotThrown) {
  const Exercise e = load_exercise(kFixture + "/exercise.toml");
  for (const std::string s : {"{\"labbook_harness\": \"2\"}\n{\"end\": true}\n",
                              "{\"labbook_harness\": 2}\n{\"call\": \"student/n=100\", \"seconds\": 1}\n"
                              "{\"output\": 7001, \"shape\": [\"x\"], \"bytes\": 400}\n",
                              "{\"labbook_harness\": 2}\n[1, 2]\n", "{\"labbook_harness\": 2}\n{\"output\": -1}\n"}) {
    HarnessResult r;
    EXPECT_NO_THROW(r = judge_harness_records(s, e, 7, {})) << s;
    EXPECT_FALSE(r.correct) << s;
    EXPECT_NE(r.problem.find("not to be trusted"), std::string::npos) << r.problem;
  }
}

TEST(HarnessRecords, ACutOffOutputIsNotTrusted) {
  const Exercise e = load_exercise(kFixture + "/exercise.toml");
  const std::string s = "{\"labbook_harness\": 2}\n{\"call\": \"student/n=100\", \"seconds\": 1}\n"
                        "{\"output\": 7001, \"shape\": [100], \"bytes\": 400}\n" + std::string(100, 'x');
  const HarnessResult r = judge_harness_records(s, e, 7, {});
  EXPECT_FALSE(r.correct);
  EXPECT_NE(r.problem.find("cut off"), std::string::npos) << r.problem;
}

TEST(ExerciseFile, ACheckOfTheWrongShapeNamesFileAndLine) {
  const fs::path dir = fs::temp_directory_path() / ("labbook-exercise-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  for (const char* f : {"starter.cu", "instructions.md", "harness.cu", "rubric.toml"}) fs::copy_file(kFixture + "/" + f, dir / f);
  std::string text = read_file(kFixture + "/exercise.toml");
  text.replace(text.find("calls = [[100], [64], [64]]"), 27, "calls = [[100, 2], [64], [64]]");
  write_file_atomically((dir / "exercise.toml").string(), text);
  try {
    load_exercise((dir / "exercise.toml").string());
    FAIL() << "accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("exercise.toml:"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("'calls'"), std::string::npos) << e.what();
  }
  fs::remove_all(dir);
}

}  // namespace
