#pragma once
// How often a piece of text appears in a rendered page, picture or sheet.
#include <cstddef>
#include <string>

namespace labbook::test {

/// Occurrences of `what` in `text`, overlapping ones included.
inline std::size_t occurrences(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace labbook::test
