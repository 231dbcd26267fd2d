#include "launch_filter.h"

#include <fnmatch.h>

#include "labbook/model/measurement.h"

namespace labbook::profiler {

namespace {

bool glob(const std::string& pattern, const std::string& text) {
  return ::fnmatch(pattern.c_str(), text.c_str(), 0) == 0;
}

bool any_glob(const std::vector<std::string>& patterns, const std::string& text) {
  for (const auto& p : patterns)
    if (glob(p, text)) return true;
  return false;
}

/// "readSegment" for "labbook::kernels::readSegment": the name without its namespaces (as
/// ncu's --kernel-name matches it), template arguments kept.
std::string unqualified(const std::string& short_name) {
  int angle = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i + 1 < short_name.size(); ++i) {
    if (short_name[i] == '<') ++angle;
    else if (short_name[i] == '>') --angle;
    else if (angle == 0 && short_name[i] == ':' && short_name[i + 1] == ':') start = i + 2;
  }
  return short_name.substr(start);
}

std::string quoted_list(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& i : items) out += (out.empty() ? "'" : ", '") + i + "'";
  return out;
}

}  // namespace

std::string glob_literal(const std::string& text) {
  std::string glob;
  for (char c : text) {
    if (c == ',') {   // globs travel comma-separated (LABBOOK_NVTX): any one character stands in
      glob += '?';
      continue;
    }
    if (c == '*' || c == '?' || c == '[' || c == '\\') glob += '\\';
    glob += c;
  }
  return glob;
}

std::string glob_problem(const std::string& pattern) {
  if (pattern.empty()) return "an empty pattern matches nothing";
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] == '\\') {
      ++i;
      continue;
    }
    if (pattern[i] != '[') continue;
    // A class: ']' right after '[' or '[!' belongs to the class.
    std::size_t j = i + 1;
    if (j < pattern.size() && pattern[j] == '!') ++j;
    if (j < pattern.size() && pattern[j] == ']') ++j;
    while (j < pattern.size() && pattern[j] != ']') ++j;
    if (j == pattern.size()) return "the '[' at position " + std::to_string(i + 1) + " is never closed by ']'";
    i = j;
  }
  return "";
}

std::string LaunchFilterSpec::describe() const {
  std::string out;
  auto add = [&](const std::string& part) { out += (out.empty() ? "" : "; ") + part; };
  if (!nvtx.empty()) add("NVTX ranges " + quoted_list(nvtx));
  if (!kernels.empty()) add("kernels " + quoted_list(kernels));
  if (skip || count) {
    std::string window = "matching launches from #" + std::to_string(skip + 1);
    if (count) window += ", " + std::to_string(*count) + " of them";
    add(window);
  }
  return out;
}

bool LaunchFilter::matches(const std::string& range_path, const std::string& kernel_name) const {
  const std::string short_name = kernel_short_name(kernel_name);
  if (!spec_.kernels.empty() && !any_glob(spec_.kernels, unqualified(short_name)) && !any_glob(spec_.kernels, short_name) &&
      !any_glob(spec_.kernels, kernel_name))
    return false;
  if (spec_.nvtx.empty()) return true;
  if (range_path.empty()) return any_glob(spec_.nvtx, short_name);
  // The path itself, then each enclosing path: "a/b/c", "a/b", "a".
  for (std::string path = range_path;;) {
    if (any_glob(spec_.nvtx, path)) return true;
    const auto slash = path.rfind('/');
    if (slash == std::string::npos) return false;
    path.resize(slash);
  }
}

bool LaunchFilter::select(const std::string& range_path, const std::string& kernel_name) {
  if (exhausted() || !matches(range_path, kernel_name)) return false;
  if (matched_++ < spec_.skip) return false;
  ++selected_;
  return true;
}

}  // namespace labbook::profiler
