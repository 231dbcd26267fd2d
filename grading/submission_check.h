#pragma once
/// @file
/// What a submission's object file may not contain, read from `readelf -sW -rW` of it: the
/// harness owns main, and nothing of the student's may run before it (a global object's
/// constructor, a function marked constructor). The CUDA runtime's own registration code,
/// one entry of .init_array, is allowed.
#include <string>

namespace labbook::grading {

/// Why the object is refused, for the student, or "" when it is fine.
std::string object_problem(const std::string& readelf_output);

}  // namespace labbook::grading
