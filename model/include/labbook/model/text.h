#pragma once
/// @file
/// The string helpers every part of labbook needs: join a list, split a list, read a C++ name,
/// how far apart two names are.
#include <string>
#include <vector>

namespace labbook {

/// "a, b, c" for join({"a","b","c"}, ", ").
std::string join(const std::vector<std::string>& items, const std::string& separator);

/// Splits at `separator`, dropping empty items: split("a,,b", ',') is {"a", "b"}.
std::vector<std::string> split(const std::string& text, char separator);

/// The C++ name of a mangled symbol ("_Z3addPfi" -> "add(float*, int)"), also when nvcc -rdc
/// gave a function of internal linkage a "__nv_static_NN__<hash>" prefix (a kernel in an
/// anonymous namespace: "(anonymous namespace)::k(int)"); `name` itself when it is not a
/// mangled name (a C function, a kernel name already readable).
std::string demangled(const std::string& name);

/// Edits (insert, delete, replace a character) from `a` to `b`, for "closest name" hints.
std::size_t edit_distance(const std::string& a, const std::string& b);

/// Up to `count` of `candidates` closest to `name` by edit distance, nearest first (ties keep
/// the candidates' order).
std::vector<std::string> closest_names(const std::string& name, const std::vector<std::string>& candidates,
                                       std::size_t count = 3);

}  // namespace labbook
