#pragma once
/// @file
/// What a failed build says: the lines of the compiler's or linker's output that name the
/// errors, for the one line per student that `grade --build-only` prints.
#include <cstddef>
#include <string>
#include <vector>

namespace labbook::grading {

/// The lines of `log` that name an error ("error", "undefined reference", "multiple
/// definition"; not the tallies after them), C++ names demangled, each with the linker's "in
/// function" line before it where there is one; the
/// first line when none does; at most `max_lines`, the last one saying how many more there are.
std::vector<std::string> build_errors(const std::string& log, std::size_t max_lines = 6);

}  // namespace labbook::grading
