#include "build_log.h"

#include <regex>
#include <sstream>

#include "labbook/model/text.h"

namespace labbook::grading {

namespace {

bool names_an_error(const std::string& line) {
  // Tallies that follow the errors themselves.
  for (const char* tally : {"detected in the compilation", "ld returned"})
    if (line.find(tally) != std::string::npos) return false;
  for (const char* word : {"error", "undefined reference", "multiple definition", "cannot find -l"})
    if (line.find(word) != std::string::npos) return true;
  return false;
}

/// nvlink names symbols as the object does ('_Z6helperf'): the student wrote helper(float).
std::string with_names_demangled(const std::string& line) {
  // A name starts at a word's start: "my_Z3" is no mangled name.
  static const std::regex mangled("(?:^|[^A-Za-z0-9_])(_Z[A-Za-z0-9_]+)");
  std::string out;
  std::size_t done = 0;
  for (auto it = std::sregex_iterator(line.begin(), line.end(), mangled); it != std::sregex_iterator(); ++it) {
    const auto at = static_cast<std::size_t>(it->position(1));
    out += line.substr(done, at - done) + demangled(it->str(1));
    done = at + static_cast<std::size_t>(it->length(1));
  }
  return out + line.substr(done);
}

}  // namespace

std::vector<std::string> build_errors(const std::string& log, std::size_t max_lines) {
  std::vector<std::string> lines, found;
  std::istringstream in(log);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) lines.push_back(line);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (!names_an_error(lines[i])) continue;
    // ld says where first ("submission.o: in function `main':"), then what.
    if (i > 0 && lines[i - 1].find("in function") != std::string::npos &&
        (found.empty() || found.back() != lines[i - 1]))
      found.push_back(lines[i - 1]);
    found.push_back(with_names_demangled(lines[i]));
  }
  if (found.empty() && !lines.empty()) found.push_back(lines.front());
  if (found.size() > max_lines && max_lines > 0) {
    const std::size_t more = found.size() - (max_lines - 1);
    found.resize(max_lines - 1);
    found.push_back("(and " + std::to_string(more) + " more lines)");
  }
  return found;
}

}  // namespace labbook::grading
