#include "exercise.h"

#include <algorithm>
#include <filesystem>

#include "labbook/model/atomic_file.h"
#include "labbook/model/error.h"
#include "labbook/model/toml_reader.h"

namespace labbook::grading {

namespace fs = std::filesystem;

std::string Exercise::folder() const { return fs::path(path).parent_path().string(); }

std::uint64_t OutputCheck::output_floats(const std::vector<std::uint64_t>& shape) const {
  if (kind == "matmul") return shape.at(0) * shape.at(2);   // lab 6: C is m x n of [m, k, n]
  std::uint64_t n = 1;
  for (auto d : shape) n *= d;
  return kind == "add_constants" ? n * constants.size() : n;
}

std::uint64_t OutputCheck::run_output_bytes() const {
  std::uint64_t bytes = 0;
  for (const auto& shape : calls) bytes += output_floats(shape) * sizeof(float);
  return bytes;
}

double OutputCheck::compulsory_bytes(const std::vector<std::uint64_t>& shape) const {
  return static_cast<double>(output_floats(shape)) * sizeof(float);
}

double OutputCheck::compulsory_read_bytes(const std::vector<std::uint64_t>& shape) const {
  // A matmul's inputs, A (m x k) and B (k x n), are each read once at least.
  if (kind == "matmul") return static_cast<double>(shape.at(0) * shape.at(1) + shape.at(1) * shape.at(2)) * sizeof(float);
  return compulsory_bytes(shape);
}

namespace {

OutputCheck read_check(const TomlReader& top) {
  const TomlReader r(top.table("check"), top.origin(), "[check]");
  r.only({"kind", "constants", "outputs", "calls"});
  OutputCheck c;
  c.kind = r.string("kind");
  const std::vector<std::string> kinds = {"transpose", "add_constants", "local_array", "stencil5", "matmul", "affine_rounds"};
  if (std::find(kinds.begin(), kinds.end(), c.kind) == kinds.end())
    r.fail("kind", "is '" + c.kind + "': expected transpose, add_constants, local_array, stencil5, matmul or affine_rounds");
  const std::size_t dimensions = c.kind == "matmul" ? 3 : c.kind == "transpose" || c.kind == "stencil5" ? 2 : 1;
  if (c.kind == "add_constants") {
    c.constants = r.numbers("constants");
    c.outputs = r.strings("outputs");
    if (c.constants.empty() || c.outputs.size() != c.constants.size())
      r.fail("outputs", "must name one output per constant");
  }
  // A stencil5's two weights: c0 for the centre, c1 for each neighbour.
  if (c.kind == "stencil5") {
    c.constants = r.numbers("constants");
    if (c.constants.size() != 2) r.fail("constants", "must hold the stencil's two weights, [c0, c1]");
  }
  // affine_rounds: how many rounds of lab 8's affine map each word goes through.
  if (c.kind == "affine_rounds") {
    c.constants = r.numbers("constants");
    if (c.constants.size() != 1 || !(c.constants[0] >= 1) || c.constants[0] > 1e6 ||
        c.constants[0] != static_cast<double>(static_cast<std::uint32_t>(c.constants[0])))
      r.fail("constants", "must hold the number of rounds, [R], a whole number from 1 to 1000000");
  }
  for (const auto& shape : r.number_lists("calls")) {
    std::vector<std::uint64_t> dims;
    for (double d : shape) {
      if (!(d >= 1) || d != static_cast<double>(static_cast<std::uint64_t>(d))) r.fail("calls", "holds a size that is not a whole number >= 1");
      dims.push_back(static_cast<std::uint64_t>(d));
    }
    if (dims.size() != dimensions)
      r.fail("calls", "each call's size must have " + std::to_string(dimensions) + (dimensions == 1 ? " number" : " numbers") +
                          " for a " + c.kind + " check");
    c.calls.push_back(std::move(dims));
  }
  if (c.calls.empty()) r.fail("calls", "must list the student's calls");
  return c;
}

}  // namespace

Exercise load_exercise(const std::string& path) {
  const toml::table root = parse_toml(read_file(path), path);
  const TomlReader top(root, path, "exercise.toml");
  top.only({"exercise", "check"});
  const TomlReader r(top.table("exercise"), path, "[exercise]");
  r.only({"id", "title", "lab", "student_file", "starter", "instructions", "harness", "rubric", "metrics",
          "measured_range", "reference_range", "host_calls", "entry_points", "source_lines", "host_code", "link_range", "work_kernel"});
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
  e.host_code = r.boolean("host_code", false);
  e.link_range = r.string("link_range", /*required=*/false);
  e.work_kernel = r.string("work_kernel", /*required=*/false);
  for (const char* key : {"link_range", "work_kernel"})
    if (!e.host_code && !r.string(key, false).empty()) r.fail(key, "needs host_code = true: it is part of how host code is audited");
  e.metrics = r.strings("metrics", /*required=*/!e.host_code);
  // A host-code exercise is scored on the trace alone (its calls' wall time, copies, streams).
  if (e.metrics.empty() && !e.host_code) r.fail("metrics", "must list the catalog metrics to collect");
  e.measured_range = r.string("measured_range");
  e.reference_range = r.string("reference_range");
  e.host_calls = r.strings("host_calls");
  e.entry_points = r.strings("entry_points");
  if (e.entry_points.empty()) r.fail("entry_points", "must name the functions the student writes");
  e.source_lines = r.boolean("source_lines", false);
  e.check = read_check(top);
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
