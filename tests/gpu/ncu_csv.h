#pragma once
// What the GPU tests read of Nsight Compute's --csv output (compare_with_ncu.cpp,
// compare_source_with_ncu.cpp): one line's fields, and a count as ncu prints it.
#include <cstdlib>
#include <string>
#include <vector>

namespace labbook::test {

/// The fields of one CSV line, quotes removed (a quoted field may hold commas).
inline std::vector<std::string> csv_fields(const std::string& line) {
  std::vector<std::string> out;
  std::string field;
  bool quoted = false;
  for (char c : line) {
    if (c == '"') quoted = !quoted;
    else if (c == ',' && !quoted) {
      out.push_back(field);
      field.clear();
    } else field += c;
  }
  out.push_back(field);
  return out;
}

/// A number as ncu prints it ("1,048,576"); 0 for text ("Global", "-") and empty fields.
inline double csv_number(const std::string& text) {
  std::string digits;
  for (char c : text)
    if (c != ',' && c != ' ') digits += c;   // thousands separators
  char* end = nullptr;
  const double v = std::strtod(digits.c_str(), &end);
  return !digits.empty() && end && *end == '\0' ? v : 0.0;
}

}  // namespace labbook::test
