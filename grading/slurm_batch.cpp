#include "slurm_batch.h"

#include <algorithm>
#include <filesystem>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "grade_writers.h"
#include "labbook/model/atomic_file.h"
#include "labbook/model/error.h"

namespace labbook::grading {

namespace fs = std::filesystem;

namespace {

/// A value for an #SBATCH line. sbatch splits those lines itself, not through a shell: a
/// double-quoted word groups spaces, a backslash escapes the next character and an unquoted
/// '#' starts a comment. A line break cannot be said at all.
std::string sbatch_value(const std::string& what, const std::string& value) {
  if (value.find_first_of("\r\n") != std::string::npos) throw Error(what + " '" + value + "': a line break cannot go in an #SBATCH line");
  if (value.find_first_of(" \t\"'#\\") == std::string::npos) return value;
  std::string out = "\"";
  for (char c : value) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

/// A literal path in Slurm's file name pattern: '%' doubled, so that only the %a added after
/// it is replaced. (A backslash anywhere would turn the replacements off: slurm_script()
/// refuses it.)
std::string filename_pattern_literal(const std::string& path) {
  std::string out;
  for (char c : path) out += c == '%' ? std::string("%%") : std::string(1, c);
  return out;
}

}  // namespace

std::size_t task_count(std::size_t submissions, std::size_t per_task) {
  return per_task == 0 ? 0 : (submissions + per_task - 1) / per_task;
}

std::string shell_quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string slurm_script(const SlurmPlan& plan) {
  const std::size_t tasks = task_count(plan.submission_count, plan.per_task);
  if (tasks == 0) throw Error(plan.submissions + ": no submissions to grade");
  if (plan.out_dir.find('\\') != std::string::npos)
    throw Error("--out " + plan.out_dir + ": Slurm reads a backslash in a log file's name as 'no %a here'; choose a folder without one");
  const std::string batch = (fs::path(plan.out_dir) / kBatchFolder).string();
  std::ostringstream s;
  s << "#!/bin/bash\n"
       "# labbook grade as a Slurm job array, written by `labbook grade --slurm`: each task grades its\n"
       "# slice of the submissions (in name order) on its own GPU and writes only those students'\n"
       "# folders. Submit it with sbatch; when every task is done, `labbook grade --collect` writes the\n"
       "# class files (grades.csv, grades.json, summary).\n";
  s << "#SBATCH --job-name=" << sbatch_value("the job name", "labbook-grade-" + plan.exercise) << "\n";
  s << "#SBATCH --array=0-" << tasks - 1 << "\n";
  if (!plan.build_only) s << "#SBATCH --gres=gpu:" << plan.gpus_per_task << "\n";
  s << "#SBATCH --time=" << plan.time_limit_minutes << "\n";
  s << "#SBATCH --output=" << sbatch_value("--out", filename_pattern_literal(batch) + "/task-%a.log") << "\n";
  if (!plan.partition.empty()) s << "#SBATCH --partition=" << sbatch_value("--partition", plan.partition) << "\n";
  s << "# " << plan.submission_count << " submissions, " << plan.per_task << " per task; a task skips students graded before"
    << (plan.force ? "" : " (unless --force)") << ".\n";
  s << ": \"${SLURM_ARRAY_TASK_ID:?submit this script with sbatch}\"\n";
  s << "exec " << shell_quoted(plan.labbook) << " grade " << shell_quoted(plan.exercise) << " " << shell_quoted(plan.submissions)
    << " --out " << shell_quoted(plan.out_dir) << " --task \"$SLURM_ARRAY_TASK_ID\" --per-task " << plan.per_task;
  if (!plan.rubric.empty()) s << " --rubric " << shell_quoted(plan.rubric);
  if (plan.force) s << " --force";
  if (plan.memcheck) s << " --memcheck";
  if (plan.build_only) s << " --build-only";
  if (!plan.arch.empty()) s << " --arch " << shell_quoted(plan.arch);
  s << "\n";
  return s.str();
}

std::optional<TaskSlice> task_slice(std::size_t count, std::size_t task, std::size_t per_task) {
  if (per_task == 0 || task >= task_count(count, per_task)) return std::nullopt;
  const std::size_t begin = task * per_task;
  return TaskSlice{begin, std::min(count, begin + per_task)};
}

std::string students_list(const std::vector<std::string>& students) {
  std::string out;
  for (const auto& s : students) out += s + "\n";
  return out;
}

CollectedScores collect_scores(const std::string& out_dir, const Rubric& rubric) {
  if (!fs::is_directory(out_dir)) throw Error(out_dir + ": not a folder of grades");
  CollectedScores out;
  std::set<std::string> seen;
  std::vector<fs::path> folders;
  for (const auto& entry : fs::directory_iterator(out_dir))
    if (entry.is_directory() && entry.path().filename().string().front() != '.') folders.push_back(entry.path());
  std::sort(folders.begin(), folders.end());
  for (const auto& folder : folders) {
    const std::string student = folder.filename().string();
    const fs::path marker = folder / "score.json";
    if (!fs::exists(marker)) {
      if (student != kBatchFolder) out.not_graded.push_back(student);   // slurm/ holds the batch's own files
      continue;
    }
    Score score;
    try {
      score = score_from_json(rubric, nlohmann::json::parse(read_file(marker.string())));
    } catch (const nlohmann::json::exception& e) {
      throw Error(marker.string() + ": not a score labbook wrote: " + e.what());
    }
    if (score.student != student)
      throw Error(marker.string() + ": the score of '" + score.student + "' in the folder of '" + student + "'");
    seen.insert(student);
    out.scores.push_back(std::move(score));
  }
  // Students a killed task never reached have no folder: the batch's list still names them.
  const fs::path listed = fs::path(out_dir) / kBatchFolder / "students.txt";
  if (fs::exists(listed)) {
    std::istringstream lines(read_file(listed.string()));
    for (std::string student; std::getline(lines, student);)
      if (!student.empty() && !seen.count(student) &&
          std::find(out.not_graded.begin(), out.not_graded.end(), student) == out.not_graded.end())
        out.not_graded.push_back(student);
  }
  std::sort(out.not_graded.begin(), out.not_graded.end());
  return out;
}

}  // namespace labbook::grading
