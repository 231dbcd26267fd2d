// `labbook grade --slurm` and `labbook grade --collect`: a class graded by a Slurm job array.
// --slurm writes the job script and grades nothing; each array task runs `labbook grade --task T`
// (grade_command.cpp) on its slice of the class and writes only those students' folders;
// --collect then writes the class files from every score.json, as a run on one machine would.
#include <cstdio>
#include <filesystem>

#include "class_files.h"
#include "exercise.h"
#include "grade_commands.h"
#include "install_layout.h"
#include "labbook/model/atomic_file.h"
#include "labbook/model/error.h"
#include "rubric.h"
#include "slurm_batch.h"

namespace labbook::cli {

namespace fs = std::filesystem;

namespace {

/// An absolute path without "." or ".." or a trailing '/': tasks start in a folder of Slurm's choosing.
std::string absolute(const std::string& path) {
  fs::path p = fs::absolute(path).lexically_normal();
  if (!p.has_filename() && p != p.root_path()) p = p.parent_path();
  return p.string();
}

std::size_t per_task_of(const GradeOptions& o) { return o.per_task.value_or(GradeOptions::kDefaultPerTask); }

}  // namespace

int grade_command(const GradeOptions& o) {
  if (!o.collect.empty()) return collect_grades(o.collect);
  if (o.exercise.empty() || o.submissions.empty())
    throw UsageError("grade needs an exercise and a submissions folder (or --collect DIR)");
  if (o.per_task && !o.task && !o.slurm) throw UsageError("--per-task goes with --task or --slurm");
  return o.slurm ? write_slurm_batch(o) : grade(o);
}

std::vector<grading::Submission> task_submissions(const GradeOptions& o, std::vector<grading::Submission> all) {
  if (!o.task) return all;
  const std::size_t per_task = per_task_of(o);
  const auto slice = grading::task_slice(all.size(), *o.task, per_task);
  if (!slice) {
    const std::string task = "--task " + std::to_string(*o.task) + ": ";
    if (all.empty()) throw UsageError(task + o.submissions + " holds no submissions");
    throw UsageError(task + o.submissions + " holds " + std::to_string(all.size()) + " submissions, so tasks of " +
                     std::to_string(per_task) + " run from 0 to " + std::to_string(grading::task_count(all.size(), per_task) - 1));
  }
  return {all.begin() + static_cast<std::ptrdiff_t>(slice->begin), all.begin() + static_cast<std::ptrdiff_t>(slice->end)};
}

int write_slurm_batch(const GradeOptions& o) {
  const grading::Exercise e = exercise_named(o.exercise);
  // Loaded now, so that a broken rubric is said here rather than in every task's log.
  const grading::Rubric rubric = grading::load_rubric(o.rubric.empty() ? e.rubric : o.rubric);
  const auto submissions = grading::find_submissions(o.submissions, e);
  if (submissions.empty())
    throw Error(o.submissions + ": no submissions to grade (one folder holding " + e.student_file +
                ", or one .cu file, per student)");
  grading::SlurmPlan plan;
  plan.labbook = fs::weakly_canonical(install_layout().labbook).string();
  plan.exercise = e.id;
  plan.submissions = absolute(o.submissions);
  plan.out_dir = absolute(o.out_dir);
  plan.rubric = o.rubric.empty() ? "" : absolute(o.rubric);
  plan.force = o.force;
  plan.memcheck = o.memcheck;
  plan.build_only = o.build_only;
  plan.arch = o.arch;
  plan.submission_count = submissions.size();
  plan.per_task = per_task_of(o);
  plan.gpus_per_task = o.gpus_per_task;
  plan.time_limit_minutes = o.time_limit_minutes;
  plan.partition = o.partition;
  const std::string script = grading::slurm_script(plan);

  const std::string batch = plan.out_dir + "/" + grading::kBatchFolder;
  std::vector<std::string> students;
  for (const auto& s : submissions) students.push_back(s.student);
  write_file_atomically(batch + "/students.txt", grading::students_list(students));
  const std::string script_path = batch + "/grade.sbatch";
  write_file_atomically(script_path, script);
  grading::copy_rubric(plan.out_dir, rubric);

  const std::size_t tasks = grading::task_count(plan.submission_count, plan.per_task);
  const std::string gpus = plan.build_only ? "builds only, no GPU"
                           : std::to_string(plan.gpus_per_task) + (plan.gpus_per_task == 1 ? " GPU" : " GPUs");
  std::printf("%s: %zu submissions in %zu array task%s of up to %zu (%s, %u minutes each): %s\n", e.id.c_str(),
              plan.submission_count, tasks, tasks == 1 ? "" : "s", plan.per_task, gpus.c_str(), plan.time_limit_minutes,
              script_path.c_str());
  std::printf("next:  sbatch %s\nthen, when every task is done:  %s grade --collect %s\n",
              grading::shell_quoted(script_path).c_str(), grading::shell_quoted(plan.labbook).c_str(),
              grading::shell_quoted(plan.out_dir).c_str());
  return 0;
}

int collect_grades(const std::string& out_dir) {
  const grading::Rubric rubric = grading::load_copied_rubric(out_dir);
  const grading::CollectedScores collected = grading::collect_scores(out_dir, rubric);
  grading::write_class_files(out_dir, rubric, collected.scores);
  std::printf("collected %zu graded students: %s/grades.csv\n", collected.scores.size(), out_dir.c_str());
  if (collected.not_graded.empty()) return 0;
  std::string names;
  for (const auto& s : collected.not_graded) names += (names.empty() ? "" : ", ") + s;
  std::fprintf(stderr, "labbook: %zu student%s not graded (no score.json), left out of the class files: %s\n",
               collected.not_graded.size(), collected.not_graded.size() == 1 ? "" : "s", names.c_str());
  const std::string batch = (fs::path(out_dir) / grading::kBatchFolder).string();
  if (fs::exists(batch + "/grade.sbatch"))
    std::fprintf(stderr, "labbook: their tasks' logs (%s/task-*.log) say what stopped them; sbatch %s again, "
                 "then --collect again\n", batch.c_str(), grading::shell_quoted(batch + "/grade.sbatch").c_str());
  else
    std::fprintf(stderr, "labbook: grade again (students graded before are skipped), then --collect again\n");
  return kExitFailure;
}

}  // namespace labbook::cli
