#pragma once
/// @file
/// The two string helpers every part of labbook needs: join a list, split a list.
#include <string>
#include <vector>

namespace labbook {

/// "a, b, c" for join({"a","b","c"}, ", ").
std::string join(const std::vector<std::string>& items, const std::string& separator);

/// Splits at `separator`, dropping empty items: split("a,,b", ',') is {"a", "b"}.
std::vector<std::string> split(const std::string& text, char separator);

}  // namespace labbook
