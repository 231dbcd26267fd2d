#pragma once
/// @file
/// The files that describe the whole class rather than one student: grades.csv, grades.json
/// and summary.{md,html}, and rubric.toml, the copy of the rubric the students were graded
/// with. A run on one machine writes them, and so does `labbook grade --collect` after a
/// Slurm job array graded the students on many; both go through these functions, so the
/// files are the same either way.
#include <string>
#include <vector>

#include "rubric.h"
#include "scoring.h"

namespace labbook::grading {

/// Writes OUT/grades.csv, OUT/grades.json and OUT/summary.{md,html} (with its figure), each
/// atomically. Throws labbook::Error naming a file that cannot be written.
void write_class_files(const std::string& out_dir, const Rubric& rubric, const std::vector<Score>& scores);

/// Writes OUT/rubric.toml, the rubric's own text, atomically (not when it already holds that
/// text); returns its path.
std::string copy_rubric(const std::string& out_dir, const Rubric& rubric);

/// The rubric in OUT/rubric.toml. Throws labbook::Error naming the file when it is missing
/// (OUT is then no folder `labbook grade` wrote) or when it is not a valid rubric.
Rubric load_copied_rubric(const std::string& out_dir);

}  // namespace labbook::grading
