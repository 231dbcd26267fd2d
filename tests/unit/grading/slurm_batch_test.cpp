// A class graded by a Slurm job array, without Slurm or a GPU: the job script (against a
// golden text, with paths that need quoting), each task's slice of the class, and collecting
// the students' score.json files into the class files a run on one machine writes.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "class_files.h"
#include "grade_writers.h"
#include "labbook/model/atomic_file.h"
#include "labbook/model/error.h"
#include "slurm_batch.h"
#include "temp_dir.h"

using namespace labbook::grading;
namespace fs = std::filesystem;

namespace {

const char* kSlurmRubric = R"([rubric]
exercise = "lab4-soa"
title = "Structure of arrays"

[[criterion]]
id = "correct"
title = "Correct results"
points = 60
correctness = true

[[criterion]]
id = "load_efficiency"
title = "Load efficiency"
points = 40
measure = "gld_efficiency"
full_at = 100.0
zero_at = 25.0
)";

/// The message of the labbook::Error `f` throws ("" when it throws none).
template <typename F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const labbook::Error& e) {
    return e.what();
  }
  return "";
}

SlurmPlan plan_with_awkward_paths() {
  SlurmPlan p;
  p.labbook = "/opt/labbook/bin/labbook";
  p.exercise = "lab4-soa";
  p.submissions = "/home/ta/o'neil's class";   // a quote: the shell must still see one word
  p.out_dir = "/scratch/grades 100%";            // a space, and a '%' Slurm must not expand
  p.rubric = "/home/ta/my rubric.toml";
  p.force = true;
  p.memcheck = true;
  p.arch = "sm_90";
  p.submission_count = 45;
  p.per_task = 20;
  p.gpus_per_task = 2;
  p.time_limit_minutes = 90;
  p.partition = "gpu-h100";
  return p;
}

/// A graded student's folder, as grade_one() leaves it.
void graded(const fs::path& out, const Rubric& rubric, const SubmissionOutcome& o) {
  labbook::write_file_atomically((out / o.student / "score.json").string(),
                                 score_json(score_submission(rubric, o), o).dump(1) + "\n");
}

}  // namespace

TEST(SlurmScript, MatchesTheGoldenTextWithQuotedPaths) {
  EXPECT_EQ(slurm_script(plan_with_awkward_paths()),
            "#!/bin/bash\n"
            "# labbook grade as a Slurm job array, written by `labbook grade --slurm`: each task grades its\n"
            "# slice of the submissions (in name order) on its own GPU and writes only those students'\n"
            "# folders. Submit it with sbatch; when every task is done, `labbook grade --collect` writes the\n"
            "# class files (grades.csv, grades.json, summary).\n"
            "#SBATCH --job-name=labbook-grade-lab4-soa\n"
            "#SBATCH --array=0-2\n"
            "#SBATCH --gres=gpu:2\n"
            "#SBATCH --time=90\n"
            "#SBATCH --output=\"/scratch/grades 100%%/slurm/task-%a.log\"\n"
            "#SBATCH --partition=gpu-h100\n"
            "# 45 submissions, 20 per task; a task skips students graded before.\n"
            ": \"${SLURM_ARRAY_TASK_ID:?submit this script with sbatch}\"\n"
            "exec '/opt/labbook/bin/labbook' grade 'lab4-soa' '/home/ta/o'\\''neil'\\''s class' --out '/scratch/grades 100%'"
            " --task \"$SLURM_ARRAY_TASK_ID\" --per-task 20 --rubric '/home/ta/my rubric.toml' --force --memcheck --arch 'sm_90'\n");
}

TEST(SlurmScript, LeavesOutWhatWasNotAskedFor) {
  SlurmPlan p = plan_with_awkward_paths();
  p.rubric = "";
  p.force = false;
  p.memcheck = false;
  p.arch = "";
  p.partition = "";
  p.submission_count = 20;   // exactly one task
  const std::string s = slurm_script(p);
  EXPECT_NE(s.find("#SBATCH --array=0-0\n"), std::string::npos) << s;
  EXPECT_EQ(s.find("--partition"), std::string::npos) << s;
  EXPECT_EQ(s.find("--rubric"), std::string::npos) << s;
  EXPECT_EQ(s.find(" --force\n"), std::string::npos) << s;
  EXPECT_EQ(s.find(" --memcheck"), std::string::npos) << s;
  EXPECT_NE(s.find("graded before (unless --force).\n"), std::string::npos) << s;
  EXPECT_NE(s.find("--per-task 20\n"), std::string::npos) << s;
  EXPECT_EQ(s.find(" --build-only"), std::string::npos) << s;
  EXPECT_EQ(s.find(" --arch"), std::string::npos) << s;
}

TEST(SlurmScript, BuildOnlyTasksAskForNoGpu) {
  SlurmPlan p = plan_with_awkward_paths();
  p.build_only = true;
  const std::string s = slurm_script(p);
  EXPECT_EQ(s.find("--gres"), std::string::npos) << s;
  EXPECT_NE(s.find(" --build-only --arch 'sm_90'\n"), std::string::npos) << s;
}

TEST(SlurmScript, RefusesWhatAnSbatchLineCannotSay) {
  SlurmPlan p = plan_with_awkward_paths();
  p.out_dir = "/scratch/a\\b";
  EXPECT_NE(error_of([&] { slurm_script(p); }).find("--out /scratch/a\\b: Slurm reads a backslash"), std::string::npos);
  p = plan_with_awkward_paths();
  p.partition = "gpu\nexec rm";
  EXPECT_NE(error_of([&] { slurm_script(p); }).find("--partition 'gpu\nexec rm': a line break cannot go in an #SBATCH line"),
            std::string::npos);
  p = plan_with_awkward_paths();
  p.submission_count = 0;
  EXPECT_EQ(error_of([&] { slurm_script(p); }), "/home/ta/o'neil's class: no submissions to grade");
}

TEST(SlurmScript, QuotesOneShellWord) {
  EXPECT_EQ(shell_quoted("plain"), "'plain'");
  EXPECT_EQ(shell_quoted("it's $HOME"), "'it'\\''s $HOME'");
  EXPECT_EQ(shell_quoted(""), "''");
}

TEST(SlurmTaskSlice, SlicesInOrderWithAShorterLastOne) {
  EXPECT_EQ(task_count(45, 20), 3u);
  EXPECT_EQ(task_count(40, 20), 2u);
  EXPECT_EQ(task_count(0, 20), 0u);
  const auto first = task_slice(45, 0, 20);
  ASSERT_TRUE(first);
  EXPECT_EQ(first->begin, 0u);
  EXPECT_EQ(first->end, 20u);
  const auto last = task_slice(45, 2, 20);
  ASSERT_TRUE(last);
  EXPECT_EQ(last->begin, 40u);
  EXPECT_EQ(last->end, 45u);
  const auto exact = task_slice(40, 1, 20);
  ASSERT_TRUE(exact);
  EXPECT_EQ(exact->end, 40u);
}

TEST(SlurmTaskSlice, ATaskBeyondTheListHasNoSlice) {
  EXPECT_FALSE(task_slice(45, 3, 20));
  EXPECT_FALSE(task_slice(40, 2, 20));
  EXPECT_FALSE(task_slice(0, 0, 20));
  EXPECT_FALSE(task_slice(45, 0, 0));
}

TEST(CollectScores, ReadsTheGradedAndNamesTheRest) {
  const labbook::test::TempDir scratch("labbook-slurm-test-collect");
  const fs::path out = scratch.path();
  const Rubric rubric = parse_rubric(kSlurmRubric, "r.toml");
  SubmissionOutcome ada, bob;
  ada.student = "ada";
  ada.built = true;
  ada.correct = true;
  ada.measured = {{"gld_efficiency", 62.5}};
  bob.student = "bob";
  bob.build_log = "error";
  graded(out, rubric, ada);
  graded(out, rubric, bob);
  fs::create_directories(out / "carl" / "work");   // its task was killed while grading it
  labbook::write_file_atomically((out / "slurm" / "students.txt").string(), students_list({"ada", "bob", "carl", "dora"}));

  const CollectedScores c = collect_scores(out.string(), rubric);
  ASSERT_EQ(c.scores.size(), 2u);
  EXPECT_EQ(c.scores[0].student, "ada");
  EXPECT_EQ(c.scores[0].total, 80.0);
  EXPECT_EQ(c.scores[1].student, "bob");
  // carl's folder has no score.json; dora's task never reached her, so she has no folder.
  EXPECT_EQ(c.not_graded, (std::vector<std::string>{"carl", "dora"}));

  // The class files are those a run on one machine writes from the scores it holds.
  write_class_files(out.string(), rubric, c.scores);
  const std::vector<Score> in_memory = {score_submission(rubric, ada), score_submission(rubric, bob)};
  EXPECT_EQ(labbook::read_file((out / "grades.csv").string()), grades_csv(rubric, in_memory));
  EXPECT_EQ(labbook::read_file((out / "grades.csv").string()),
            "student,total,max,correct,load_efficiency\nada,80.00,100.00,60.00,20.00\nbob,0.00,100.00,0.00,0.00\n");
  EXPECT_EQ(labbook::read_file((out / "grades.json").string()), grades_json(rubric, in_memory).dump(1) + "\n");
  EXPECT_NE(labbook::read_file((out / "summary.md").string()).find("2 submissions graded"), std::string::npos);
  EXPECT_TRUE(fs::exists(out / "summary.html"));
}

TEST(CollectScores, ABrokenScoreFileIsNamed) {
  const labbook::test::TempDir scratch("labbook-slurm-test-broken-score");
  const fs::path out = scratch.path();
  const Rubric rubric = parse_rubric(kSlurmRubric, "r.toml");
  labbook::write_file_atomically((out / "ada" / "score.json").string(), "{\"student\": \"ada\", \"criteria\": [");
  const std::string path = (out / "ada" / "score.json").string();
  EXPECT_NE(error_of([&] { collect_scores(out.string(), rubric); }).find(path + ": not a score labbook wrote: "),
            std::string::npos);
  labbook::write_file_atomically(path, "{\"student\": \"ada\"}");   // JSON, but no criteria
  EXPECT_NE(error_of([&] { collect_scores(out.string(), rubric); }).find(path + ": not a score labbook wrote: "),
            std::string::npos);
  labbook::write_file_atomically(path, "{\"student\": \"bob\", \"criteria\": []}");
  EXPECT_EQ(error_of([&] { collect_scores(out.string(), rubric); }), path + ": the score of 'bob' in the folder of 'ada'");
  EXPECT_NE(error_of([&] { collect_scores((out / "nowhere").string(), rubric); }).find("not a folder of grades"),
            std::string::npos);
}

TEST(CollectRubric, TheCopyRoundTripsAndItsAbsenceOrDamageIsNamed) {
  const labbook::test::TempDir scratch("labbook-slurm-test-rubric");
  const fs::path out = scratch.path();
  const std::string copy = (out / "rubric.toml").string();
  EXPECT_EQ(error_of([&] { load_copied_rubric(out.string()); }),
            copy + ": missing: every `labbook grade` run writes it into its --out folder; is " + out.string() + " that folder?");

  labbook::write_file_atomically((out / "mine.toml").string(), kSlurmRubric);
  const Rubric mine = load_rubric((out / "mine.toml").string());
  EXPECT_EQ(copy_rubric(out.string(), mine), copy);
  EXPECT_EQ(labbook::read_file(copy), kSlurmRubric);
  const Rubric back = load_copied_rubric(out.string());
  ASSERT_EQ(back.criteria.size(), 2u);
  EXPECT_EQ(back.criteria[1].id, "load_efficiency");
  // The same text again (every task of an array copies it) leaves the file alone; another
  // rubric replaces it.
  const auto inode = [&] {
    struct stat st {};
    ::stat(copy.c_str(), &st);
    return st.st_ino;
  };
  const auto first = inode();
  copy_rubric(out.string(), mine);
  EXPECT_EQ(inode(), first);
  labbook::write_file_atomically((out / "other.toml").string(), std::string(kSlurmRubric) + "# changed\n");
  copy_rubric(out.string(), load_rubric((out / "other.toml").string()));
  EXPECT_NE(inode(), first);
  EXPECT_EQ(labbook::read_file(copy), std::string(kSlurmRubric) + "# changed\n");

  labbook::write_file_atomically(copy, "[rubric]\nexercise = \"x\"\ntitle = \"t\"\n\n[[criterion]]\nid = \"a\"\n");
  const std::string broken = error_of([&] { load_copied_rubric(out.string()); });
  EXPECT_EQ(broken.rfind(copy + ":", 0), 0u) << broken;
}
