#pragma once
/// @file
/// The secret a class's inputs are drawn from. A student's inputs derive from the secret, the
/// student's name and the submission: unknown before grading, so no submission can carry its
/// answers, and the same on every re-run into the same folder, so a re-run gives the same score.
#include <cstdint>
#include <string>

namespace labbook::grading {

/// OUT/.grading-secret, made on first use (random, readable by its owner alone, outside every
/// folder a sandbox sees); the Slurm tasks of one class share the first one written.
std::string class_secret(const std::string& out_dir);

/// The seed of `student`'s inputs under `secret`, given the text of the submission: a changed
/// submission, graded again, draws other inputs; the same one draws the same.
std::uint64_t student_seed(const std::string& secret, const std::string& student, const std::string& submission);

}  // namespace labbook::grading
