#pragma once
/// @file
/// What a submission's object file may not contain, read from `readelf -sW -rW` of it: the
/// harness owns main, and nothing of the student's may run before it (a global object's
/// constructor, a function marked constructor; the CUDA runtime's own registration code, one
/// entry of .init_array, is allowed); it may not replace a function of the C library, the C++
/// library, the CUDA runtime or the harness (a definition with C linkage, or in namespace std
/// or labbook), nor call what opens files, starts processes, ends the program, reads the
/// environment or loads code. Student host code runs in the harness's process: these are
/// what would let it forge the harness's verdict.
#include <string>
#include <vector>

namespace labbook::grading {

/// Why the object is refused, for the student, or "" when it is fine.
std::string object_problem(const std::string& readelf_output);

/// Why the object's host code is refused, from `objdump -d` of it, or "" when it is fine: a
/// system call made by the submission's own instructions (inline assembly) goes around every
/// call object_problem() looks for, and could write the harness's result file.
std::string host_code_problem(const std::string& objdump_output);

}  // namespace labbook::grading
