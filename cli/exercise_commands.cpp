// `labbook exercise`: an exercise's handout for a student, and the list of exercises. Both
// executables name exercises the same way (exercise_named), so this file is shared.
#include <cstdio>
#include <filesystem>

#include "commands.h"
#include "exercise.h"
#include "install_layout.h"
#include "labbook/model/atomic_file.h"
#include "labbook/model/error.h"

namespace labbook::cli {

namespace fs = std::filesystem;

grading::Exercise exercise_named(const std::string& name) {
  try {
    return grading::find_exercise(install_layout().labs(), name);
  } catch (const Error& e) {
    throw UsageError(e.what());
  }
}

int exercise_handout(const std::string& id, const std::string& out_dir) {
  const grading::Exercise e = exercise_named(id);
  fs::create_directories(out_dir);
  const std::string student_file = out_dir + "/" + e.student_file, starter = read_file(e.starter);
  // A student's work is never replaced: only a missing file, or one still equal to the starter.
  const bool changed = fs::exists(student_file) && read_file(student_file) != starter;
  if (!changed) write_file_atomically(student_file, starter);
  // The way back to the lab's sheet, which the exercise builds on.
  const std::string back = "> This exercise goes with " + e.lab + "'s sheet: `labbook run " + e.lab +
                           "` writes it to `reports/" + e.lab + ".html` (from the lab's recording where there is no GPU).\n\n";
  write_file_atomically(out_dir + "/instructions.md", back + read_file(e.instructions));
  if (changed)
    std::fprintf(stderr, "labbook: %s differs from the starter file: left as it is (remove it, or give another --out, "
                         "for a fresh copy)\n", student_file.c_str());
  std::printf("%s: %s (start from it) and %s/instructions.md\n", e.id.c_str(), student_file.c_str(), out_dir.c_str());
  return 0;
}

int list_exercises() {
  for (const auto& e : grading::find_exercises(install_layout().labs()))
    std::printf("%-16s %-5s %s\n", e.id.c_str(), e.lab.c_str(), e.title.c_str());
  return 0;
}

}  // namespace labbook::cli
