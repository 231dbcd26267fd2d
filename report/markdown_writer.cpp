#include "markdown_writer.h"

namespace labbook::report {

std::string escape_cell(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '|') out += "\\|";
    else if (c == '\n') out += ' ';
    else out += c;
  }
  return out.empty() ? " " : out;
}

namespace {
std::string table_markdown(const Table& t) {
  std::string out = "|";
  for (const auto& h : t.header) out += " " + escape_cell(h) + " |";
  out += "\n|";
  for (std::size_t i = 0; i < t.header.size(); ++i) out += " --- |";
  out += "\n";
  for (const auto& row : t.rows) {
    out += "|";
    for (const auto& c : row) out += " " + escape_cell(c) + " |";
    out += "\n";
  }
  return out;
}
}  // namespace

std::string to_markdown(const Sheet& sheet) {
  std::string out;
  for (const auto& b : sheet.blocks) {
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
    }
  }
  return out;
}

}  // namespace labbook::report
