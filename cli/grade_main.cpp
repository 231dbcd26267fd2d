// labbook-grade: `labbook grade`, which labbook runs in its place (cli/main.cpp) so that a
// first `make lab4` need not compile the grading code. Its arguments are those after `grade`.
//
//   labbook grade lab4 SUBMISSIONS --out DIR [--rubric FILE] [--force] [--jobs N] [--build-only] [--memcheck] [--arch sm_NN]
//   labbook grade lab4 SUBMISSIONS --out DIR --slurm [--per-task N] ...   a Slurm job array for it
//   labbook grade --collect DIR      the class files from what the array's tasks graded
#include <memory>
#include <regex>
#include <string>

#include <CLI/CLI.hpp>

#include "cli_validators.h"
#include "exit_codes.h"
#include "grade_commands.h"
#include "help_formatter.h"

int main(int argc, char** argv) {
  using namespace labbook::cli;
  CLI::App app{"Build, check, measure and score every submission of a class (sandboxed)", "labbook grade"};
  app.formatter(std::make_shared<HelpFormatter>());
  GradeOptions grade;
  // The exercise and the submissions are optional to CLI11 because --collect needs neither;
  // grade_command() asks for them otherwise.
  auto* exercise_arg = app.add_option("exercise", grade.exercise, "Exercise id, or a lab with one exercise (e.g. lab4)");
  auto* submissions_arg = app.add_option("submissions", grade.submissions, "Folder: one folder or one .cu file per student")
                              ->check(CLI::ExistingDirectory);
  auto* out_opt = app.add_option("--out", grade.out_dir, "Folder for the grades")->check(output_folder())->capture_default_str();
  auto* rubric_opt =
      app.add_option("--rubric", grade.rubric, "Your rubric (TOML) instead of the exercise's")->check(CLI::ExistingFile);
  auto* force_opt = app.add_flag("--force", grade.force, "Grade again the students graded before");
  auto* jobs_opt = app.add_option("--jobs,-j", grade.jobs, "Submissions built at once (runs on the GPU stay one at a time)")
                       ->check(CLI::Range(1, 256))
                       ->capture_default_str();
  auto* build_only_opt = app.add_flag(
      "--build-only", grade.build_only, "Only build and check every submission (sandboxed, no GPU needed); exit 1 if one does not build");
  auto* memcheck_opt = app.add_flag(
      "--memcheck", grade.memcheck, "Run each submission once more under compute-sanitizer and report bad accesses as feedback");
  auto* arch_opt = app.add_option("--arch", grade.arch,
                                  "nvcc's -arch for student code, e.g. sm_90 (default: that of the GPU that runs it; with "
                                  "--build-only and no GPU, the build's)")
      ->check(CLI::Validator([](const std::string& a) {
        return std::regex_match(a, std::regex("sm_[0-9]+[a-z]?")) ? "" : "'" + a + "' is not an nvcc -arch like sm_90";
      }, "sm_NN"));
  auto* slurm_opt = app.add_flag("--slurm", grade.slurm,
                                 "Grade nothing: write OUT/slurm/grade.sbatch, a Slurm job array that grades the class");
  auto* task_opt = app.add_option("--task", grade.task,
                                  "Grade only the T-th slice of --per-task submissions (a job array's task); no class files")
                      ->check(CLI::NonNegativeNumber)
                      ->excludes(slurm_opt);
  auto* per_task_opt =
      app.add_option("--per-task", grade.per_task, "Submissions per array task (--slurm, --task); default 20")
          ->check(CLI::PositiveNumber);
  auto* gpus_opt = app.add_option("--gpus-per-task", grade.gpus_per_task, "GPUs each array task asks Slurm for")
                       ->check(CLI::PositiveNumber)
                       ->capture_default_str()
                       ->needs(slurm_opt)
                       ->excludes(build_only_opt);
  auto* time_opt = app.add_option("--time-limit", grade.time_limit_minutes, "Each array task's time limit, in minutes")
                       ->check(CLI::PositiveNumber)
                       ->capture_default_str()
                       ->needs(slurm_opt);
  auto* partition_opt =
      app.add_option("--partition", grade.partition, "The Slurm partition (default: the cluster's)")->needs(slurm_opt);
  app.add_option("--collect", grade.collect,
                 "Write DIR's class files (grades.csv/json, summary) from the students the array tasks graded")
      ->check(CLI::ExistingDirectory)
      ->excludes(exercise_arg, submissions_arg, out_opt, rubric_opt, force_opt, jobs_opt, build_only_opt, memcheck_opt, arch_opt,
                 slurm_opt, task_opt, per_task_opt, gpus_opt, time_opt, partition_opt);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : kExitUsage;
  }
  return with_errors_reported([&] { return grade_command(grade); });
}
