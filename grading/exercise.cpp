#include "exercise.h"

#include <algorithm>
#include <filesystem>

#include "labbook/model/atomic_file.h"
#include "labbook/model/error.h"
#include "labbook/model/toml_reader.h"

namespace labbook::grading {

namespace fs = std::filesystem;

std::string Exercise::folder() const { return fs::path(path).parent_path().string(); }

Exercise load_exercise(const std::string& path) {
  const toml::table root = parse_toml(read_file(path), path);
  const TomlReader top(root, path, "exercise.toml");
  top.only({"exercise"});
  const TomlReader r(top.table("exercise"), path, "[exercise]");
  r.only({"id", "title", "lab", "student_file", "starter", "instructions", "harness", "rubric", "metrics",
          "measured_range", "reference_range"});
  const fs::path folder = fs::path(path).parent_path();
  auto file = [&](const char* key) {
    const std::string f = (folder / r.string(key)).string();
    if (!fs::exists(f)) r.fail(key, "names a missing file " + f);
    return f;
  };
  Exercise e;
  e.path = path;
  e.id = r.string("id");
  e.title = r.string("title");
  e.lab = r.string("lab");
  e.student_file = r.string("student_file");
  e.starter = file("starter");
  e.instructions = file("instructions");
  e.harness = file("harness");
  e.rubric = file("rubric");
  e.metrics = r.strings("metrics");
  if (e.metrics.empty()) r.fail("metrics", "must list the catalog metrics to collect");
  e.measured_range = r.string("measured_range");
  e.reference_range = r.string("reference_range");
  return e;
}

std::vector<Exercise> find_exercises(const std::string& labs_folder) {
  std::vector<fs::path> files;
  for (const auto& lab : fs::directory_iterator(labs_folder)) {
    const fs::path exercises = lab.path() / "exercises";
    if (!fs::is_directory(exercises)) continue;
    for (const auto& e : fs::directory_iterator(exercises))
      if (fs::exists(e.path() / "exercise.toml")) files.push_back(e.path() / "exercise.toml");
  }
  std::sort(files.begin(), files.end());
  std::vector<Exercise> out;
  for (const auto& f : files) out.push_back(load_exercise(f.string()));
  return out;
}

Exercise find_exercise(const std::string& labs_folder, const std::string& id_or_lab) {
  std::vector<Exercise> of_lab;
  std::string known;
  for (auto& e : find_exercises(labs_folder)) {
    if (e.id == id_or_lab) return e;
    if (e.lab == id_or_lab) of_lab.push_back(e);
    known += (known.empty() ? "" : ", ") + e.id;
  }
  if (of_lab.size() == 1) return of_lab.front();
  if (of_lab.size() > 1) throw Error(id_or_lab + " has several exercises: name one (" + known + ")");
  throw Error("no exercise '" + id_or_lab + "' (known: " + known + ")");
}

std::vector<Submission> find_submissions(const std::string& folder, const Exercise& exercise) {
  if (!fs::is_directory(folder)) throw Error(folder + ": not a folder of submissions");
  std::vector<Submission> out;
  for (const auto& entry : fs::directory_iterator(folder)) {
    const fs::path p = entry.path();
    if (p.filename().string().front() == '.') continue;   // .git and the like
    if (entry.is_directory()) {
      const fs::path file = p / exercise.student_file;
      out.push_back({p.filename().string(), fs::exists(file) ? file.string() : ""});
    } else if (p.extension() == ".cu") {
      out.push_back({p.stem().string(), p.string()});
    }
  }
  std::sort(out.begin(), out.end(), [](const Submission& a, const Submission& b) { return a.student < b.student; });
  return out;
}

}  // namespace labbook::grading
