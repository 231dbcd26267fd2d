#pragma once
// Checks the SVG tests share: well-formed nesting, and counting what a picture holds.
#include <string>
#include <vector>

namespace labbook::test {

/// Every element opened is closed, in order (self-closing ones aside): XML's nesting.
inline std::string unbalanced_tag(const std::string& svg) {
  std::vector<std::string> open;
  for (std::size_t p = svg.find('<'); p != std::string::npos; p = svg.find('<', p + 1)) {
    const std::size_t end = svg.find('>', p);
    if (end == std::string::npos) return "unterminated tag at " + std::to_string(p);
    const std::string tag = svg.substr(p + 1, end - p - 1);
    if (tag.empty() || tag[0] == '?' || tag[0] == '!' || tag.back() == '/') continue;
    const std::string name = tag.substr(tag[0] == '/' ? 1 : 0, tag.find_first_of(" \n\t") - (tag[0] == '/' ? 1 : 0));
    if (tag[0] != '/') {
      open.push_back(name);
    } else {
      if (open.empty() || open.back() != name) return "</" + name + "> closes " + (open.empty() ? "nothing" : open.back());
      open.pop_back();
    }
  }
  return open.empty() ? "" : "<" + open.back() + "> never closed";
}

inline std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
  return n;
}

}  // namespace labbook::test
