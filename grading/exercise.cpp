#include "exercise.h"

#include <algorithm>
#include <filesystem>

#include <toml++/toml.h>

#include "labbook/model/atomic_file.h"
#include "labbook/model/error.h"

namespace labbook::grading {

namespace fs = std::filesystem;

std::string Exercise::folder() const { return fs::path(path).parent_path().string(); }

Exercise load_exercise(const std::string& path) {
  toml::table root;
  try {
    root = toml::parse(read_file(path), path);
  } catch (const toml::parse_error& e) {
    throw Error(path + ":" + std::to_string(e.source().begin.line) + ": " + std::string(e.description()));
  }
  const toml::table* t = root["exercise"].as_table();
  if (!t) throw Error(path + ":1: missing table [exercise]");
  const std::string folder = fs::path(path).parent_path().string();
  auto field = [&](const char* key) {
    const toml::node* n = t->get(key);
    if (!n || !n->is_string())
      throw Error(path + ":" + std::to_string(n ? n->source().begin.line : t->source().begin.line) + ": [exercise]: '" +
                  key + "' must be a string");
    return n->as_string()->get();
  };
  auto file = [&](const char* key) {
    const std::string f = (fs::path(folder) / field(key)).string();
    if (!fs::exists(f))
      throw Error(path + ":" + std::to_string((*t)[key].node()->source().begin.line) + ": [exercise]: '" + key +
                  "' names a missing file " + f);
    return f;
  };
  Exercise e;
  e.path = path;
  e.id = field("id");
  e.title = field("title");
  e.lab = field("lab");
  e.student_file = field("student_file");
  e.starter = file("starter");
  e.instructions = file("instructions");
  e.harness = file("harness");
  e.rubric = file("rubric");
  e.measured_range = field("measured_range");
  e.reference_range = field("reference_range");
  if (const toml::array* m = (*t)["metrics"].as_array())
    for (const auto& v : *m)
      if (v.is_string()) e.metrics.push_back(v.as_string()->get());
  if (e.metrics.empty()) throw Error(path + ": [exercise]: 'metrics' must list the catalog metrics to collect");
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
