#include "html_writer.h"

#include "cmark_document.h"
#include "format.h"
#include "markdown_writer.h"

namespace labbook::report {

namespace {

/// Authored inline Markdown (a heading, a cell's explanation) without cmark's paragraph: on
/// one line, as the Markdown writer joins it, so that a "- " or a blank line inside it starts
/// no list or paragraph.
std::string authored_inline(const std::string& markdown) {
  std::string line = markdown;
  for (char& c : line)
    if (c == '\n' || c == '\r') c = ' ';
  std::string html = markdown_to_html(line_start_safe(line));
  while (!html.empty() && html.back() == '\n') html.pop_back();
  if (html.rfind("<p>", 0) == 0 && html.size() >= 7 && html.compare(html.size() - 4, 4, "</p>") == 0)
    html = html.substr(3, html.size() - 7);
  return html;
}

std::string element(const std::string& tag, const std::string& content, const std::string& attributes = {}) {
  return "<" + tag + attributes + ">" + content + "</" + tag + ">";
}

/// `inner` under a line the reader clicks to open.
std::string folded(const std::string& summary, const std::string& inner) {
  return "<details class=\"folded\"><summary>" + escape_markup(summary) + "</summary>\n" + inner + "</details>\n";
}

std::string table_html(const Table& t) {
  std::string head, body;
  for (const auto& h : t.header) head += element("th", inline_html(h)) + "\n";
  for (const auto& row : t.rows) {
    body += "<tr>\n";
    // Each cell names its column, which a phone shows before the cell's value.
    for (std::size_t c = 0; c < row.size(); ++c)
      body += element("td", inline_html(row[c]),
                      " data-label=\"" + escape_markup(c < t.header.size() ? t.header[c].plain() : std::string()) + "\"") + "\n";
    body += "</tr>\n";
  }
  const std::string open = t.is_summary ? "<table class=\"summary\">" : "<table>";
  std::string out = open + "\n<thead>\n<tr>\n" + head + "</tr>\n</thead>\n<tbody>\n" + body + "</tbody>\n</table>\n";
  if (!t.folded_under.empty()) out = folded(t.folded_under, out);
  if (t.notes.empty()) return out;
  std::string notes;
  for (const auto& n : t.notes) notes += element("li", inline_html(n)) + "\n";
  notes = "<ol start=\"" + std::to_string(t.first_note) + "\" class=\"notes\">\n" + notes + "</ol>\n";
  if (!t.fold_notes) return out + notes;
  const int last = t.first_note + static_cast<int>(t.notes.size()) - 1;
  const std::string which = t.notes.size() == 1 ? "Note " + std::to_string(last)
                                                : "Notes " + std::to_string(t.first_note) + "–" + std::to_string(last);
  return out + folded(which + " on these rows", notes);
}

std::string lines_html(const std::vector<Text>& lines) {
  std::string out;
  for (std::size_t i = 0; i < lines.size(); ++i) out += (i ? "<br />\n" : "") + inline_html(lines[i]);
  return element("p", out) + "\n";
}

std::string blocks_html(const std::vector<Block>& blocks) {
  std::string out;
  bool in_folded_section = false;
  for (const auto& b : blocks) {
    switch (b.kind) {
      case Block::Kind::Heading: {
        const std::string mark = std::string(kFoldMark) + " ";
        const bool folded = b.level == 2 && b.text.rfind(mark, 0) == 0;
        if (b.level <= 2 && in_folded_section) out += "</details>\n";
        if (b.level <= 2) in_folded_section = folded;
        const std::string tag = "h" + std::to_string(b.level);
        if (folded)
          out += "<details class=\"section\"><summary>" + element(tag, authored_inline(b.text.substr(mark.size()))) + "</summary>\n";
        else
          out += element(tag, authored_inline(b.text)) + "\n";
        break;
      }
      case Block::Kind::Markdown: out += markdown_to_html(b.text); break;
      case Block::Kind::Table: out += table_html(b.table); break;
      case Block::Kind::Lines: out += lines_html(b.items); break;
      case Block::Kind::List: {
        std::string items;
        for (const auto& item : b.items) items += element("li", inline_html(item)) + "\n";
        out += "<ul>\n" + items + "</ul>\n";
        break;
      }
      case Block::Kind::Callout: out += "<blockquote>\n" + lines_html(b.items) + "</blockquote>\n"; break;
      case Block::Kind::Code: out += "<pre><code>" + escape_markup(b.text) + "</code></pre>\n"; break;
      case Block::Kind::Fold: out += folded(b.text, blocks_html(b.children)); break;
    }
  }
  if (in_folded_section) out += "</details>\n";
  return out;
}

}  // namespace

std::string inline_html(const Text& text) {
  std::string out;
  for (const auto& s : text.spans) {
    switch (s.style) {
      case Span::Style::Plain: out += escape_markup(s.text); break;
      case Span::Style::Strong: out += element("strong", escape_markup(s.text)); break;
      case Span::Style::Code: out += element("code", escape_markup(s.text)); break;
      case Span::Style::Link: out += element("a", escape_markup(s.text), " href=\"" + escape_markup(s.target) + "\""); break;
      case Span::Style::Authored: out += authored_inline(s.text); break;
      case Span::Style::Badge:
        out += element("span", escape_markup(s.text), std::string(" class=\"badge badge-") + s.target + "\"");
        break;
    }
  }
  return out;
}

std::string html_body(const Sheet& sheet) { return blocks_html(sheet.blocks); }

}  // namespace labbook::report
