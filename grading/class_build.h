#pragma once
/// @file
/// The build step of grading a class: each submission copied into a fresh folder of its own,
/// built against the exercise's harness in the sandbox and checked, `jobs` at a time; the
/// verdict and the compiler's output in OUT/<student>/build.log.
#include <sys/types.h>

#include <cstdint>
#include <string>
#include <vector>

#include "grade_pipeline.h"

namespace labbook::grading {

/// One student on the way through the pipeline.
struct Student {
  Submission submission;
  std::string dir;   ///< OUT/<student>
  uid_t uid = 0;
  std::string work;  ///< its build folder; "" when there was nothing to build
  std::uint64_t seed = 0;   ///< its inputs' seed (grading_secret.h)
  SubmissionOutcome outcome;
  std::string labbook_error;
  std::string listings() const { return dir + "/labbook"; }
};

/// `path`, emptied and made again, owned by the sandbox's user `uid` when labbook is root;
/// its absolute path.
std::string fresh_folder(const std::string& path, uid_t uid);

/// Every submission built and checked, `jobs` at a time: builds need only the CPU.
void build_all(const ClassSettings& settings, Toolchain& toolchain, std::vector<Student>& students, const Progress& progress);

}  // namespace labbook::grading
