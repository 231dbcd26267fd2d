#pragma once
/// @file
/// A class graded as a Slurm job array: the submissions, in name order, are shared out in
/// slices of `per_task`, one slice per array task; each task runs `labbook grade --task T`
/// on its slice and writes only its students' folders; `labbook grade --collect` then reads
/// every OUT/<student>/score.json and writes the class files. Nothing here needs a GPU or
/// Slurm: the script is text, the slice arithmetic, and collecting reads files.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "scoring.h"

namespace labbook::grading {

/// OUT/slurm: the job script, the students it shares out, and the tasks' logs.
inline constexpr const char* kBatchFolder = "slurm";

/// What the job script runs and asks Slurm for. Paths are absolute: a task starts in
/// whatever folder Slurm chooses, on another machine.
struct SlurmPlan {
  std::string labbook;                  ///< the labbook executable, its links resolved: every node runs it
  std::string exercise;                 ///< exercise id
  std::string submissions, out_dir;
  std::string rubric;                   ///< the instructor's rubric; "" for the exercise's own
  bool force = false;                   ///< tasks grade again students graded before
  bool memcheck = false;                ///< tasks add the compute-sanitizer pass
  bool build_only = false;              ///< tasks only build and check (--build-only): no GPU asked for
  std::string arch;                     ///< --arch for student code; "" for that of the task's GPU
  std::size_t submission_count = 0, per_task = 20;
  unsigned gpus_per_task = 1, time_limit_minutes = 60;
  std::string partition;                ///< "" for the cluster's default
};

/// ceil(submissions / per_task): how many array tasks the plan needs.
std::size_t task_count(std::size_t submissions, std::size_t per_task);

/// `s` as one word for a POSIX shell: in single quotes, each ' written as '\''.
std::string shell_quoted(const std::string& s);

/// The sbatch script (OUT/slurm/grade.sbatch): #SBATCH lines for the array, GPUs, time limit,
/// job name, log file per task (OUT/slurm/task-%a.log) and partition, then the one command
/// every task runs with its own $SLURM_ARRAY_TASK_ID. Throws labbook::Error when a value
/// cannot be said in an #SBATCH line (a line break; in the log path also a backslash, which
/// would turn off Slurm's %a) or when there is nothing to grade.
std::string slurm_script(const SlurmPlan& plan);

/// Submissions [begin, end) of a sorted list.
struct TaskSlice {
  std::size_t begin = 0, end = 0;
};
/// Task `task`'s share of `count` submissions: [task * per_task, (task + 1) * per_task), the
/// last one shorter; nullopt when the task starts beyond the list. per_task must be > 0.
std::optional<TaskSlice> task_slice(std::size_t count, std::size_t task, std::size_t per_task);

/// OUT/slurm/students.txt: the students the tasks share out, one per line in task order, so
/// that collecting knows the students whose task never reached them.
std::string students_list(const std::vector<std::string>& students);

/// What a grades folder holds.
struct CollectedScores {
  std::vector<Score> scores;            ///< by student
  std::vector<std::string> not_graded;  ///< sorted: a folder without score.json, or listed and absent
};
/// Reads every OUT/<student>/score.json against `rubric`. A student folder without score.json
/// (its task was killed, or grading it failed), and a student named in OUT/slurm/students.txt
/// without one, is not graded. Throws labbook::Error naming a score.json that cannot be read
/// or that names another student, and when OUT is not a folder.
CollectedScores collect_scores(const std::string& out_dir, const Rubric& rubric);

}  // namespace labbook::grading
