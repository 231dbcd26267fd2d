#pragma once
// `labbook grade`'s commands, which the labbook-grade executable runs (grade_main.cpp); each
// returns the process exit code and throws labbook::Error for failures the user should read.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "commands.h"

namespace labbook::grading {
struct Submission;
}  // namespace labbook::grading

namespace labbook::cli {

struct GradeOptions {
  std::string exercise;       ///< an exercise id, or a lab id with one exercise
  std::string submissions;    ///< folder: one folder or one .cu per student
  std::string out_dir = "grades";
  std::string rubric;         ///< the instructor's rubric; default: the exercise's
  bool force = false;         ///< grade again students graded before
  int jobs = 1;               ///< builds at once (GPU runs are always one at a time)
  bool build_only = false;    ///< build and check every submission, run nothing (no GPU needed)
  bool memcheck = false;      ///< one more run per submission under compute-sanitizer, as feedback
  std::string arch;           ///< nvcc's -arch for student code; default: the GPU that runs it
  // A class graded by a Slurm job array (grade_batch.cpp):
  std::optional<std::size_t> task;       ///< --task T: only the T-th slice of per_task submissions, no class files
  std::optional<std::size_t> per_task;   ///< submissions per task (--task, --slurm); default kDefaultPerTask
  bool slurm = false;                    ///< write OUT/slurm/grade.sbatch instead of grading
  unsigned gpus_per_task = 1, time_limit_minutes = 60;
  std::string partition;                 ///< "" for the cluster's default
  std::string collect;                   ///< --collect DIR: the class files from DIR/*/score.json
  static constexpr std::size_t kDefaultPerTask = 20;
};
/// `labbook grade` as asked: --collect, --slurm, or grading here with grade(). Throws
/// UsageError when neither --collect nor both the exercise and the submissions are given.
int grade_command(const GradeOptions&);
/// Grades every submission, or with `task` only that task's slice (see grade_command.cpp);
/// writes OUT/<student>/... and OUT/rubric.toml, then (not for a task) OUT/grades.* and summary.
int grade(const GradeOptions&);
/// Writes OUT/slurm/grade.sbatch, a job array whose tasks run grade() on slices of the class,
/// with OUT/slurm/students.txt and OUT/rubric.toml; grades nothing. Throws labbook::Error
/// when there are no submissions.
int write_slurm_batch(const GradeOptions&);
/// The class files from OUT/rubric.toml and OUT/*/score.json, as grade() writes them. Lists
/// students not graded on stderr and then returns kExitFailure (the files are still written
/// for the others); 0 when every student is graded.
int collect_grades(const std::string& out_dir);
/// What grade() grades: every submission, or with `task` that task's slice of them. Throws
/// UsageError naming --task when the slice starts beyond the list.
std::vector<grading::Submission> task_submissions(const GradeOptions&, std::vector<grading::Submission> all);

}  // namespace labbook::cli
