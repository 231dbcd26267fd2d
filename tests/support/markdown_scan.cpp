#include "markdown_scan.h"

#include <cctype>

namespace labbook::report::markdown {

bool is_alnum(char c) {
  const auto u = static_cast<unsigned char>(c);
  return u < 0x80 && std::isalnum(u) != 0;
}
bool is_word(char c) { return is_alnum(c) || c == '_'; }
bool is_blank(char c) { return c == ' ' || c == '\t'; }

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(std::move(line));
    start = end + 1;
  }
  return lines;
}

std::string unescape(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 1 < s.size() && std::ispunct(static_cast<unsigned char>(s[i + 1])) != 0) ++i;
    out += s[i];
  }
  return out;
}

std::string unescape_entities(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '&') {
      out += s[i];
      continue;
    }
    const std::size_t semi = s.find(';', i);
    if (semi == std::string::npos || semi - i > 10) {
      out += s[i];
      continue;
    }
    const std::string name = s.substr(i + 1, semi - i - 1);
    std::string replacement;
    if (name == "amp") replacement = "&";
    else if (name == "lt") replacement = "<";
    else if (name == "gt") replacement = ">";
    else if (name == "quot") replacement = "\"";
    else if (name == "apos" || name == "#39") replacement = "'";
    else {
      out += s[i];
      continue;
    }
    out += replacement;
    i = semi;
  }
  return out;
}

std::vector<std::pair<std::size_t, std::size_t>> code_spans(const std::string& line) {
  std::vector<std::pair<std::size_t, std::size_t>> spans;
  std::size_t i = 0;
  while (i < line.size()) {
    if (line[i] == '\\') {
      i += 2;
      continue;
    }
    if (line[i] != '`') {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < line.size() && line[j] == '`') ++j;
    const std::size_t run = j - i;
    bool closed = false;
    for (std::size_t k = j; k < line.size();) {
      if (line[k] != '`') {
        ++k;
        continue;
      }
      std::size_t m = k;
      while (m < line.size() && line[m] == '`') ++m;
      if (m - k == run) {
        spans.emplace_back(i, m);
        i = m;
        closed = true;
        break;
      }
      k = m;
    }
    if (!closed) i = j;
  }
  return spans;
}

std::vector<LinkTarget> link_targets(const std::string& text) {
  std::vector<LinkTarget> out;
  std::size_t i = 0;
  while ((i = text.find("](", i)) != std::string::npos) {
    if (i > 0 && text[i - 1] == '\\') {
      i += 2;
      continue;
    }
    const std::size_t b = i + 2;
    std::size_t end = b;
    std::string target;
    if (b < text.size() && text[b] == '<') {
      const std::size_t close = text.find('>', b);
      if (close == std::string::npos) {
        i = b;
        continue;
      }
      target = text.substr(b + 1, close - b - 1);
      end = close + 1;
    } else {
      int depth = 0;
      while (end < text.size() && !is_blank(text[end])) {
        if (text[end] == '(') ++depth;
        if (text[end] == ')' && depth-- == 0) break;
        ++end;
      }
      target = text.substr(b, end - b);
    }
    if (end < text.size() && text[end] == ')') {
      ++end;
    } else {   // a title (target "title") up to the closing parenthesis belongs to the destination too
      const std::size_t close = text.find(')', end);
      if (close != std::string::npos) end = close + 1;
    }
    out.push_back({b, end, target});
    i = end;
  }
  return out;
}

bool is_external(const std::string& target) {
  for (const char* scheme : {"http://", "https://", "mailto:"})
    if (target.compare(0, std::string(scheme).size(), scheme) == 0) return true;
  return false;
}

std::string fence_of(const std::string& line) {
  const std::string t = trim(line);
  if (t.size() < 3 || (t[0] != '`' && t[0] != '~')) return "";
  std::size_t n = 0;
  while (n < t.size() && t[n] == t[0]) ++n;
  if (n < 3) return "";
  if (t[0] == '`' && t.find('`', n) != std::string::npos) return "";   // an info string holds no backquote
  return t.substr(0, n);
}

bool closes_fence(const std::string& line, const std::string& fence) {
  const std::string t = trim(line);
  return t.size() >= fence.size() && t.find_first_not_of(fence[0]) == std::string::npos;
}

bool is_delimiter_row(const std::string& line) {
  const std::string t = trim(line);
  return t.find('-') != std::string::npos && t.find('|') != std::string::npos &&
         t.find_first_not_of("|-: \t") == std::string::npos;
}

std::vector<std::pair<std::size_t, std::size_t>> table_cells(const std::string& line) {
  std::vector<std::pair<std::size_t, std::size_t>> cells;
  std::size_t b = line.find_first_not_of(" \t");
  if (b == std::string::npos) return cells;
  std::size_t e = line.find_last_not_of(" \t") + 1;
  if (line[b] == '|') ++b;
  if (e > b && line[e - 1] == '|' && !(e >= 2 && line[e - 2] == '\\')) --e;
  std::size_t start = b;
  for (std::size_t i = b; i < e; ++i) {
    if (line[i] == '\\') {
      ++i;
      continue;
    }
    if (line[i] == '|') {
      cells.emplace_back(start, i);
      start = i + 1;
    }
  }
  cells.emplace_back(start, e);
  return cells;
}

}  // namespace labbook::report::markdown
