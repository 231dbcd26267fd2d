#include "class_files.h"

#include <filesystem>

#include "class_summary.h"
#include "grade_writers.h"
#include "labbook/model/atomic_file.h"
#include "labbook/model/error.h"
#include "sheet_files.h"

namespace labbook::grading {

namespace fs = std::filesystem;

namespace {
std::string copied_rubric_path(const std::string& out_dir) { return (fs::path(out_dir) / "rubric.toml").string(); }
}  // namespace

void write_class_files(const std::string& out_dir, const Rubric& rubric, const std::vector<Score>& scores) {
  write_file_atomically(out_dir + "/grades.csv", grades_csv(rubric, scores));
  write_file_atomically(out_dir + "/grades.json", grades_json(rubric, scores).dump(1) + "\n");
  report::write_sheet(class_summary(rubric, scores), out_dir, "summary");
}

std::string copy_rubric(const std::string& out_dir, const Rubric& rubric) {
  const std::string path = copied_rubric_path(out_dir);
  // Read before writing: the rubric in use may be this very file, from an earlier run.
  const std::string text = read_file(rubric.path);
  // The tasks of a job array start together on many nodes, where two may share a pid and so
  // a temporary name: the copy --slurm already wrote is left alone rather than replaced.
  if (fs::exists(path) && read_file(path) == text) return path;
  write_file_atomically(path, text);
  return path;
}

Rubric load_copied_rubric(const std::string& out_dir) {
  const std::string path = copied_rubric_path(out_dir);
  if (!fs::exists(path))
    throw Error(path + ": missing: every `labbook grade` run writes it into its --out folder; is " + out_dir +
                " that folder?");
  return load_rubric(path);
}

}  // namespace labbook::grading
