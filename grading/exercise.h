#pragma once
/// @file
/// An exercise (labs/NN_name/exercises/NAME/exercise.toml): the file a student hands in, the
/// harness that owns main and checks it, the default rubric, and the NVTX ranges the
/// collector measures the student's kernel and the lab's reference in.
#include <cstdint>
#include <string>
#include <vector>

namespace labbook::grading {

/// How labbook checks the student's calls, outside the program ([exercise.check]): the kind
/// of check (labs/common/exercise_checks.h) and the calls every run of the harness makes.
struct OutputCheck {
  std::string kind;                       ///< "transpose", "add_constants", "local_array", "stencil5", "matmul" or "affine_rounds"
  /// add_constants: one per input; stencil5: the weights [c0, c1] (centre, each neighbour);
  /// affine_rounds: [rounds].
  std::vector<double> constants;
  std::vector<std::string> outputs;       ///< add_constants: the outputs' names, as the student knows them
  /// The student's calls in every run, in order: each one's shape ([nx, ny] for a transpose,
  /// [width, height] for a stencil5, [m, k, n] for a matmul, [n]).
  std::vector<std::vector<std::uint64_t>> calls;
  /// Floats the output of a call of this shape holds.
  std::uint64_t output_floats(const std::vector<std::uint64_t>& shape) const;
  /// The bytes of output every run sends labbook: all its calls'.
  std::uint64_t run_output_bytes() const;
  /// The bytes a call of this shape must read at least, and write (inputs read once, outputs
  /// written once): the same for both in these checks.
  double compulsory_bytes(const std::vector<std::uint64_t>& shape) const;
  /// The bytes a call of this shape must read at least: compulsory_bytes(), but for a matmul,
  /// whose inputs A (m x k) and B (k x n) are not the size of its output C (m x n).
  double compulsory_read_bytes(const std::vector<std::uint64_t>& shape) const;
};

struct Exercise {
  std::string path;              ///< exercise.toml
  std::string id, title, lab;
  std::string student_file;      ///< name of the file each student hands in
  std::string starter, instructions, harness, rubric;   ///< absolute paths
  std::vector<std::string> metrics;                      ///< catalog names
  std::string measured_range, reference_range;
  OutputCheck check;
  /// The allow-list's part of this exercise (grading/submission_check.h): the CUDA runtime
  /// calls the student's host code may make, and the functions the student defines.
  std::vector<std::string> host_calls, entry_points;
  /// [exercise] source_lines: the student's code is built with -lineinfo and run once more
  /// with CUPTI's per-instruction counts, and the feedback shows its lines that move memory.
  bool source_lines = false;
  /// [exercise] host_code: the student writes the host side (labs 2 and 8): copies inside the
  /// student's calls are the work (the input to the GPU and the output back, each at least
  /// once), and a call's time is its wall time in the trace (its NVTX range), not its kernels'.
  bool host_code = false;
  /// [exercise] link_range: the harness's call that copies the input's size each way between
  /// page-locked memory and the GPU, the link's bandwidth for `link_pct` ("" when none).
  std::string link_range;
  /// [exercise] work_kernel (with host_code): the kernel the harness's work function launches,
  /// named as the trace names it without parameters ("labbook::kernels::affineRounds"): any
  /// other kernel in a student's call, or more of it than the reference runs, is a finding.
  std::string work_kernel;
  std::string folder() const;
};

/// Parses and validates exercise.toml (files must exist). Throws labbook::Error "path:line: ...".
Exercise load_exercise(const std::string& path);

/// Every exercise under labs/*/exercises/*/exercise.toml, in folder order.
std::vector<Exercise> find_exercises(const std::string& labs_folder);

/// The exercise with this id, or the only exercise of the lab with this id; throws
/// labbook::Error listing what exists otherwise.
Exercise find_exercise(const std::string& labs_folder, const std::string& id_or_lab);

/// One student's submission: a folder holding the student file, or a .cu file directly in
/// the submissions folder (the student's name is the folder's or the file's name).
struct Submission {
  std::string student, file;
};
/// Submissions in name order; a folder without the student file is listed with file "".
std::vector<Submission> find_submissions(const std::string& folder, const Exercise& exercise);

}  // namespace labbook::grading
