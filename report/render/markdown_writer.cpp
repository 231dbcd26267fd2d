#include "markdown_writer.h"

#include <algorithm>
#include <cctype>

namespace labbook::report {

namespace {

bool is_word(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }

/// Backquotes fence a code span; cmark-gfm splits table cells at '|' even inside code, so
/// there a pipe keeps its backslash (GFM removes it before the code span is read).
std::string code_span(const std::string& text, bool in_table) {
  std::size_t longest = 0, run = 0;
  for (char c : text) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  const std::string fence(longest + 1, '`');
  std::string body;
  for (char c : text) {
    if (c == '\n' || c == '\r') body += ' ';
    else if (c == '|' && in_table) body += "\\|";
    else body += c;
  }
  // A space on each side is stripped again by the parser; it keeps a leading or trailing
  // backquote from joining the fence.
  const bool pad = !body.empty() && (body.front() == '`' || body.back() == '`' || body.front() == ' ');
  return fence + (pad ? " " : "") + body + (pad ? " " : "") + fence;
}

std::string render(const Text& text, bool in_table) {
  std::string out;
  for (const auto& s : text.spans) {
    if (s.text.empty()) continue;   // "****" would be a rule, "``" literal backquotes
    switch (s.style) {
      case Span::Style::Plain: out += escape_inline(s.text); break;
      case Span::Style::Strong: {
        // Emphasis must not open or close on a blank: blanks go outside the markers.
        const auto first = s.text.find_first_not_of(' '), last = s.text.find_last_not_of(' ');
        if (first == std::string::npos) {
          out += s.text;
          break;
        }
        out += s.text.substr(0, first) + "**" + escape_inline(s.text.substr(first, last - first + 1)) + "**" +
               s.text.substr(last + 1);
        break;
      }
      case Span::Style::Code: out += code_span(s.text, in_table); break;
      case Span::Style::Badge: out += std::string(badge_symbol(s.target)) + " **" + escape_inline(s.text) + "**"; break;
      case Span::Style::Authored:
        // One line; in a table a pipe would end the cell.
        for (char c : s.text) {
          if (c == '\n' || c == '\r') {
            if (!out.empty() && out.back() != ' ') out += ' ';
          } else if (c == ' ' && !out.empty() && out.back() == ' ') {
            continue;   // a line break's blank and the next line's are one
          } else {
            out += c == '|' && in_table ? std::string("\\|") : std::string(1, c);
          }
        }
        break;
      case Span::Style::Link: {
        // The destination in <...> may hold anything but '<', '>' and line breaks.
        std::string target;
        for (char c : s.target)
          if (c != '<' && c != '>' && c != '\n' && c != '\r') target += c == '|' && in_table ? std::string("%7C") : std::string(1, c);
        out += "[" + escape_inline(s.text) + "](<" + target + ">)";
        break;
      }
    }
  }
  return out;
}

std::string cell(const Text& text) {
  const std::string out = render(text, true);
  return out.empty() ? " " : out;
}

std::string table_markdown(const Table& t) {
  // The fold's line, marked which the HTML writer turns into a fold.
  std::string out = t.folded_under.empty() ? "|" : std::string(kFoldMark) + " " + escape_inline(t.folded_under) + "\n\n|";
  for (const auto& h : t.header) out += " " + cell(h) + " |";
  out += "\n|";
  for (std::size_t i = 0; i < t.header.size(); ++i) out += " --- |";
  out += "\n";
  for (const auto& row : t.rows) {
    out += "|";
    for (const auto& c : row) out += " " + cell(c) + " |";
    out += "\n";
  }
  if (!t.notes.empty()) out += "\n";
  for (std::size_t i = 0; i < t.notes.size(); ++i)
    out += std::to_string(static_cast<std::size_t>(t.first_note) + i) + ". " + line_start_safe(render(t.notes[i], false)) + "\n";
  return out;
}

}  // namespace

std::string line_start_safe(std::string line) {
  line.erase(0, line.find_first_not_of(" \t"));
  if (line.empty()) return line;
  if (std::string("#-+>=").find(line.front()) != std::string::npos) return "\\" + line;
  std::size_t digits = 0;
  while (digits < line.size() && std::isdigit(static_cast<unsigned char>(line[digits]))) ++digits;
  if (digits > 0 && digits < line.size() && (line[digits] == '.' || line[digits] == ')')) line.insert(digits, "\\");
  return line;
}

std::string escape_inline(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    switch (c) {
      case '\n': case '\r': out += ' '; break;
      case '\\': case '`': case '*': case '[': case ']': case '<': case '>': case '&': case '|': case '~':
        out += '\\';
        out += c;
        break;
      case '_': {
        // Inside a word ("gld_efficiency") an underscore can open no emphasis: keep it bare.
        const bool inside_word = i > 0 && i + 1 < text.size() && is_word(text[i - 1]) && is_word(text[i + 1]);
        if (!inside_word) out += '\\';
        out += c;
        break;
      }
      default: out += c;
    }
  }
  return out;
}

namespace {

std::string blocks_markdown(const std::vector<Block>& blocks) {
  std::string out;
  for (const auto& b : blocks) {
    switch (b.kind) {
      case Block::Kind::Heading: out += std::string(static_cast<std::size_t>(b.level), '#') + " " + b.text + "\n\n"; break;
      case Block::Kind::Markdown: {
        std::string text = b.text;
        while (!text.empty() && (text.front() == '\n')) text.erase(text.begin());
        while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
        out += text + "\n\n";
        break;
      }
      case Block::Kind::Table: out += table_markdown(b.table) + "\n"; break;
      case Block::Kind::Lines:
        for (std::size_t i = 0; i < b.items.size(); ++i)
          out += line_start_safe(render(b.items[i], false)) + (i + 1 < b.items.size() ? "  \n" : "\n");
        out += "\n";
        break;
      case Block::Kind::List:
        for (const auto& item : b.items) out += "- " + line_start_safe(render(item, false)) + "\n";
        out += "\n";
        break;
      case Block::Kind::Callout:
        for (const auto& item : b.items) out += "> " + line_start_safe(render(item, false)) + "\n";
        out += "\n";
        break;
      case Block::Kind::Code: {
        // A fence longer than any run of backquotes in the text cannot be closed by it.
        std::size_t longest = 0, run = 0;
        for (char c : b.text) {
          run = c == '`' ? run + 1 : 0;
          longest = std::max(longest, run);
        }
        const std::string fence(std::max<std::size_t>(3, longest + 1), '`');
        std::string text = b.text;
        if (!text.empty() && text.back() != '\n') text += '\n';
        out += fence + "\n" + text + fence + "\n\n";
        break;
      }
      case Block::Kind::Fold:
        out += line_start_safe(std::string(kFoldMark) + " **" + escape_inline(b.text) + "**") + "\n\n" + blocks_markdown(b.children);
        break;
    }
  }
  return out;
}

}  // namespace

std::string to_markdown(const Sheet& sheet) { return blocks_markdown(sheet.blocks); }

}  // namespace labbook::report
