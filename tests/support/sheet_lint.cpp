#include "sheet_lint.h"

#include <algorithm>
#include <cctype>
#include <regex>
#include <sstream>
#include <utility>

#include "markdown_scan.h"

namespace labbook::report {

// The rules' helpers, named apart: a unity batch shares one anonymous namespace, where the
// using-directive would reach the files after this one.
namespace lint_rules {

using namespace markdown;

/// Masked text (code, link targets, URLs, file names) becomes this byte: neither a word
/// character nor a blank, so no rule matches in it or across it.
constexpr char kMasked = '\x1f';

/// Count units: never with decimals, never plural after 1.
const std::string kCountWords =
    "instructions|formats|sectors|requests|transactions|kernels|calls|threads|conflicts|faults|wavefronts|"
    "launches|copies|bytes|repeats";

bool is_letter(char c) {
  const auto u = static_cast<unsigned char>(c);
  return u < 0x80 && std::isalpha(u) != 0;
}

/// `line[begin, end)` with up to 20 bytes around it, cut at UTF-8 character boundaries.
std::string excerpt(const std::string& line, std::size_t begin, std::size_t end) {
  std::size_t b = begin > 20 ? begin - 20 : 0, e = std::min(line.size(), end + 20);
  while (b > 0 && (static_cast<unsigned char>(line[b]) & 0xC0) == 0x80) --b;
  while (e < line.size() && (static_cast<unsigned char>(line[e]) & 0xC0) == 0x80) ++e;
  return trim(line.substr(b, e - b));
}

void mask(std::string& text, std::size_t begin, std::size_t end) {
  for (std::size_t i = begin; i < end && i < text.size(); ++i) text[i] = kMasked;
}

/// A snake_case identifier: [a-z0-9_] only, with an underscore and a letter.
bool is_identifier(const std::string& s) {
  if (s.find('_') == std::string::npos) return false;
  bool letter = false;
  for (char c : s) {
    if (!(c == '_' || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))) return false;
    letter = letter || (c >= 'a' && c <= 'z');
  }
  return letter;
}

/// A cell that is only a number: "100.01", "47,584.5", "4.1943e+06", "−3".
bool is_bare_number(std::string s) {
  static const std::regex number(R"([+-]?(?:[0-9][0-9,]*(?:\.[0-9]+)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)");
  s = trim(s);
  const std::string minus = "\xE2\x88\x92";   // U+2212
  if (s.compare(0, minus.size(), minus) == 0) s.erase(0, minus.size());
  return !s.empty() && std::regex_match(s, number);
}

/// Masks URLs and file names (…/h100.json, lab4.md#results, h100.ptxas.txt) in `text`.
void mask_urls_and_files(std::string& text) {
  for (const char* scheme : {"https://", "http://", "mailto:"}) {
    for (std::size_t p = text.find(scheme); p != std::string::npos; p = text.find(scheme, p + 1)) {
      std::size_t e = p;
      while (e < text.size() && !is_blank(text[e]) && text[e] != ')' && text[e] != '>' && text[e] != '|') ++e;
      mask(text, p, e);
    }
  }
  static const char* const kExtensions[] = {"txt", "svg", "json", "md", "html"};
  const std::string separators = " \t()<>[]`|\"'";
  std::size_t i = 0;
  while (i < text.size()) {
    if (separators.find(text[i]) != std::string::npos || text[i] == kMasked) {
      ++i;
      continue;
    }
    std::size_t e = i;
    while (e < text.size() && separators.find(text[e]) == std::string::npos && text[e] != kMasked) ++e;
    std::size_t name_end = 0;   // end of the last ".ext" in the token, 0 if none
    for (std::size_t d = i; d < e; ++d) {
      if (text[d] != '.') continue;
      for (const char* ext : kExtensions) {
        const std::string x = ext;
        if (text.compare(d + 1, x.size(), x) == 0 && d + 1 + x.size() <= e &&
            (d + 1 + x.size() == text.size() || !is_word(text[d + 1 + x.size()])))
          name_end = d + 1 + x.size();
      }
    }
    if (name_end > i) mask(text, i, name_end);
    i = e;
  }
}

/// Calls `report(begin, end)` for each number in scientific notation in `text`: "4.1943e+06",
/// "1e9", "2.5E-3"; not inside a word ("3317679e06" in a hash).
template <typename Report>
void find_e_notation(const std::string& text, Report report) {
  static const std::regex e_notation(R"((?:[0-9]+(?:\.[0-9]+)?|\.[0-9]+)[eE][+-]?[0-9]+)");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), e_notation); it != std::sregex_iterator(); ++it) {
    const auto b = static_cast<std::size_t>(it->position()), e = b + static_cast<std::size_t>(it->length());
    if (b > 0 && (is_alnum(text[b - 1]) || text[b - 1] == '.')) continue;
    if (e < text.size() && is_alnum(text[e])) continue;
    report(b, e);
  }
}

/// The rules on plain text. `text` is `line` with code, link targets, URLs and file names
/// masked (same length); `mentions` is `line` with only link targets masked (a mention of
/// notes.md counts in inline code too).
void plain_text_rules(const std::string& file, int n, const std::string& line, const std::string& text,
                      const std::string& mentions, std::vector<LintFinding>& out) {
  const auto add = [&](const char* rule, std::size_t b, std::size_t e) {
    out.push_back({file, n, rule, excerpt(line, b, e)});
  };
  find_e_notation(text, [&](std::size_t b, std::size_t e) { add("e-notation", b, e); });

  // A ratio's unit followed by its first word: "sectors/request sectors per request",
  // "sectors/request sectors per load request", "sectors/request sectors/request".
  static const std::regex ratio_twice(R"(([A-Za-z]+)/[A-Za-z]+ \1(?![A-Za-z0-9_]))");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), ratio_twice); it != std::sregex_iterator(); ++it) {
    const auto b = static_cast<std::size_t>(it->position()), e = b + static_cast<std::size_t>(it->length());
    if (b > 0 && is_word(text[b - 1])) continue;
    add("doubled unit", b, e);
  }
  // A word of 3+ letters twice: "conflicts conflicts".
  std::vector<std::pair<std::size_t, std::size_t>> words;
  for (std::size_t i = 0; i < text.size();) {
    if (!is_word(text[i])) {
      ++i;
      continue;
    }
    std::size_t e = i;
    while (e < text.size() && is_word(text[e])) ++e;
    words.emplace_back(i, e);
    i = e;
  }
  for (std::size_t k = 0; k + 1 < words.size(); ++k) {
    const auto [b1, e1] = words[k];
    const auto [b2, e2] = words[k + 1];
    if (b2 != e1 + 1 || text[e1] != ' ') continue;
    const std::string w = text.substr(b1, e1 - b1);
    if (lower(w) != lower(text.substr(b2, e2 - b2))) continue;
    if (std::count_if(w.begin(), w.end(), is_letter) < 3) continue;
    add("doubled unit", b1, e2);
  }

  // "28705.00 instructions"; a ratio ("4.00 sectors/request", "2.00 sectors per request") is fine.
  static const std::regex decimals("[0-9][0-9,]*\\.[0-9]+ (?:" + kCountWords + ")(?![A-Za-z0-9_/])(?! per )");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), decimals); it != std::sregex_iterator(); ++it) {
    const auto b = static_cast<std::size_t>(it->position());
    if (b > 0 && (is_word(text[b - 1]) || text[b - 1] == '.' || text[b - 1] == ',')) continue;
    add("count with decimals", b, b + static_cast<std::size_t>(it->length()));
  }
  // "1 kernels" (not "21 kernels", "1.5 kernels" or the ratio "1 wavefronts/request").
  static const std::regex one("1 (?:" + kCountWords + ")(?![A-Za-z0-9_/])");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), one); it != std::sregex_iterator(); ++it) {
    const auto b = static_cast<std::size_t>(it->position());
    if (b > 0 && (is_word(text[b - 1]) || text[b - 1] == '.' || text[b - 1] == ',')) continue;
    add("singular count", b, b + static_cast<std::size_t>(it->length()));
  }

  for (std::size_t p = mentions.find("notes.md"); p != std::string::npos; p = mentions.find("notes.md", p + 1))
    add("dangling link", p, p + 8);
}

/// The first word of a header cell that is a snake_case identifier ("payload_bytes" in
/// "volume/pitch payload_bytes"); "" if none. Masked (code) words do not count.
std::string identifier_word(const std::string& cell) {
  std::size_t i = 0;
  while (i < cell.size()) {
    while (i < cell.size() && is_blank(cell[i])) ++i;
    std::size_t e = i;
    while (e < cell.size() && !is_blank(cell[e])) ++e;
    std::string word = cell.substr(i, e - i);
    const std::string punctuation = "()[]{},.;:*\"'";
    while (!word.empty() && punctuation.find(word.front()) != std::string::npos) word.erase(word.begin());
    while (!word.empty() && punctuation.find(word.back()) != std::string::npos) word.pop_back();
    if (is_identifier(word)) return word;
    i = e;
  }
  return "";
}

}  // namespace lint_rules

std::vector<LintFinding> lint_markdown(const std::string& file, const std::string& markdown,
                                       const std::vector<std::string>& written) {
  using namespace lint_rules;
  std::vector<LintFinding> out;
  const std::vector<std::string> lines = split_lines(markdown);
  std::string fence;
  bool in_table = false;
  int measured_column = -1;
  for (std::size_t k = 0; k < lines.size(); ++k) {
    const std::string& line = lines[k];
    const int n = static_cast<int>(k) + 1;
    if (!fence.empty()) {
      if (closes_fence(line, fence)) fence.clear();
      continue;
    }
    if (!(fence = fence_of(line)).empty()) {
      in_table = false;
      continue;
    }
    // Masked copies: `text` without code, link targets, URLs or file names; `mentions`
    // without link targets only.
    std::string text = line, mentions = line;
    for (const auto& [b, e] : code_spans(line)) mask(text, b, e);
    for (const auto& link : link_targets(text)) {
      const std::string target = link.target.substr(0, link.target.find('#'));
      if (!target.empty() && !is_external(link.target) &&
          std::find(written.begin(), written.end(), target) == written.end())
        out.push_back({file, n, "dangling link", excerpt(line, link.begin, link.end)});
      mask(text, link.begin, link.end);
      mask(mentions, link.begin, link.end);
    }
    mask_urls_and_files(text);

    const bool starts_table = !in_table && text.find('|') != std::string::npos && k + 1 < lines.size() &&
                              is_delimiter_row(lines[k + 1]);
    if (starts_table) {
      in_table = true;
      measured_column = -1;
      const auto cells = table_cells(text);
      for (std::size_t c = 0; c < cells.size(); ++c) {
        const auto [b, e] = cells[c];
        const std::string cell = trim(unescape(text.substr(b, e - b)));
        if (lower(cell) == "measured here" || lower(cell).rfind("measured on ", 0) == 0) measured_column = static_cast<int>(c);
        if (!identifier_word(cell).empty())
          out.push_back({file, n, "identifier label", trim(unescape(line.substr(b, e - b)))});
      }
    } else if (in_table && !trim(line).empty() && line.find('|') != std::string::npos) {
      const auto cells = table_cells(text);
      if (!is_delimiter_row(line) && measured_column >= 0 && static_cast<std::size_t>(measured_column) < cells.size()) {
        const auto [b, e] = cells[static_cast<std::size_t>(measured_column)];
        const std::string value = trim(unescape(text.substr(b, e - b)));
        if (is_bare_number(value)) {
          const std::string row = trim(unescape(line.substr(cells[0].first, cells[0].second - cells[0].first)));
          out.push_back({file, n, "unitless value", row + ": " + value + " (Measured here, no unit)"});
        }
      }
    } else {
      in_table = false;
    }
    plain_text_rules(file, n, line, text, mentions, out);
  }
  return out;
}

std::vector<LintFinding> lint_terminal(const std::string& name, const std::string& text) {
  using namespace lint_rules;
  std::vector<LintFinding> out;
  const std::vector<std::string> lines = split_lines(text);
  std::size_t column = std::string::npos;   // where "measured here" starts in the table's header line
  for (std::size_t k = 0; k < lines.size(); ++k) {
    const std::string& line = lines[k];
    const int n = static_cast<int>(k) + 1;
    std::string plain = line;
    mask_urls_and_files(plain);
    const std::size_t header = lower(line).find("measured here");
    // A space-aligned table: its header and rows are padded (two blanks or more somewhere).
    const bool padded = trim(line).find("  ") != std::string::npos;
    if (header != std::string::npos && padded) {
      column = header;
    } else if (column != std::string::npos && !padded) {
      column = std::string::npos;
    } else if (column != std::string::npos) {
      // The cell: the first word starting at the column or after it (a long name before it
      // shifts the row), up to the next run of two blanks.
      std::size_t b = column;
      if (b < line.size() && b > 0 && !is_blank(line[b - 1])) b = line.find_first_of(" \t", b);
      if (b != std::string::npos) b = line.find_first_not_of(" \t", b);
      if (b != std::string::npos) {
        std::size_t e = line.find("  ", b);
        if (e == std::string::npos) e = line.size();
        const std::string value = trim(line.substr(b, e - b));
        if (is_bare_number(value)) {   // the row named by its first two words (experiment, quantity)
          std::istringstream words(line);
          std::string first, second;
          words >> first >> second;
          out.push_back({name, n, "unitless value", first + " " + second + ": " + value + " (measured here, no unit)"});
        }
      }
    }
    plain_text_rules(name, n, line, plain, line, out);
  }
  return out;
}

std::vector<LintFinding> lint_svg(const std::string& file, const std::string& svg) {
  using namespace lint_rules;
  std::vector<LintFinding> out;
  std::size_t p = 0;
  while ((p = svg.find("<text", p)) != std::string::npos) {
    const std::size_t after = p + 5;
    if (after >= svg.size() || !(svg[after] == '>' || std::isspace(static_cast<unsigned char>(svg[after])))) {
      p = after;
      continue;
    }
    const std::size_t open_end = svg.find('>', after);
    if (open_end == std::string::npos) break;
    if (svg[open_end - 1] == '/') {   // <text/>: nothing to read
      p = open_end;
      continue;
    }
    const std::size_t close = svg.find("</text>", open_end);
    if (close == std::string::npos) break;
    std::string raw;   // the element's text, nested tags (<tspan>) dropped
    bool in_tag = false;
    for (std::size_t i = open_end + 1; i < close; ++i) {
      if (svg[i] == '<') in_tag = true;
      else if (svg[i] == '>') in_tag = false;
      else if (!in_tag) raw += svg[i];
    }
    std::string content = unescape_entities(raw);
    for (char& c : content)
      if (c == '\n' || c == '\r' || c == '\t') c = ' ';
    content = trim(content);
    const int n = static_cast<int>(std::count(svg.begin(), svg.begin() + static_cast<std::ptrdiff_t>(p), '\n')) + 1;
    find_e_notation(content, [&](std::size_t, std::size_t) { out.push_back({file, n, "e-notation", content}); });
    // An axis label names its quantity: "payload_bytes (log scale)" is the identifier payload_bytes.
    std::string label = content;
    if (!label.empty() && label.back() == ')') {
      const std::size_t open = label.rfind(" (");
      if (open != std::string::npos) label = trim(label.substr(0, open));
    }
    if (is_identifier(label)) out.push_back({file, n, "identifier label", content});
    p = close + 7;
  }
  return out;
}

std::string describe(const LintFinding& f) {
  return f.file + ":" + std::to_string(f.line) + ": " + f.rule + ": " + f.excerpt;
}

}  // namespace labbook::report
