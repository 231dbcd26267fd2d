#include "markdown_tables.h"

#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm.h>

#include <algorithm>
#include <cstring>

#include "cmark_document.h"
#include "labbook/model/error.h"

namespace labbook::report {

namespace {

bool is(cmark_node* n, const char* type) { return std::strcmp(cmark_node_get_type_string(n), type) == 0; }

/// Plain text of a node: text and code spans, in order.
std::string plain_text(cmark_node* node) {
  std::string out;
  cmark_iter* it = cmark_iter_new(node);
  cmark_event_type ev;
  while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
    cmark_node* n = cmark_iter_get_node(it);
    if (ev != CMARK_EVENT_ENTER) continue;
    const cmark_node_type t = cmark_node_get_type(n);
    if (t == CMARK_NODE_TEXT || t == CMARK_NODE_CODE) out += cmark_node_get_literal(n);
    else if (t == CMARK_NODE_SOFTBREAK || t == CMARK_NODE_LINEBREAK) out += ' ';
  }
  cmark_iter_free(it);
  return out;
}

/// The text authored inline Markdown shows once parsed (`code` -> code, *a* -> a).
std::string shown_text(const std::string& markdown) {
  CmarkDocument doc = parse_markdown(markdown);
  std::string out;
  for (cmark_node* block = cmark_node_first_child(doc.get()); block; block = cmark_node_next(block))
    out += plain_text(block);
  return out;
}

/// What a reader of the cell sees: the parser folds newlines and trims the ends.
std::string visible(const Text& cell) {
  std::string out;
  for (const auto& s : cell.spans) {
    if (s.style == Span::Style::Authored) out += shown_text(s.text);
    else if (s.style == Span::Style::Badge) out += std::string(badge_symbol(s.target)) + " " + s.text;
    else out += s.text;
  }
  std::replace(out.begin(), out.end(), '\n', ' ');
  std::replace(out.begin(), out.end(), '\r', ' ');
  const auto first = out.find_first_not_of(' ');
  if (first == std::string::npos) return "";
  return out.substr(first, out.find_last_not_of(' ') - first + 1);
}

}  // namespace

std::vector<ParsedTable> parse_tables(const std::string& markdown) {
  CmarkDocument doc = parse_markdown(markdown);
  std::vector<ParsedTable> tables;
  for (cmark_node* block = cmark_node_first_child(doc.get()); block; block = cmark_node_next(block)) {
    if (!is(block, "table")) continue;
    ParsedTable t;
    for (cmark_node* row = cmark_node_first_child(block); row; row = cmark_node_next(row)) {
      std::vector<std::string> cells;
      for (cmark_node* c = cmark_node_first_child(row); c; c = cmark_node_next(c)) cells.push_back(plain_text(c));
      if (cmark_gfm_extensions_get_table_row_is_header(row)) t.header = std::move(cells);
      else t.rows.push_back(std::move(cells));
    }
    tables.push_back(std::move(t));
  }
  return tables;
}

void validate_markdown(const Sheet& sheet, const std::string& markdown) {
  const std::vector<ParsedTable> parsed = parse_tables(markdown);
  std::vector<const Block*> tables;
  for_each_block(sheet.blocks, [&tables](const Block& b) {
    if (b.kind == Block::Kind::Table) tables.push_back(&b);
  });
  std::size_t index = 0;
  for (const Block* table : tables) {
    const Block& b = *table;
    const std::string where = "sheet table " + std::to_string(index + 1);
    if (index >= parsed.size()) throw Error(where + ": cmark-gfm did not parse it as a table");
    const ParsedTable& p = parsed[index++];
    if (p.header.size() != b.table.header.size() || p.rows.size() != b.table.rows.size())
      throw Error(where + ": parsed as " + std::to_string(p.header.size()) + " columns x " +
                  std::to_string(p.rows.size()) + " rows, expected " + std::to_string(b.table.header.size()) +
                  " x " + std::to_string(b.table.rows.size()));
    for (std::size_t c = 0; c < p.header.size(); ++c)
      if (p.header[c] != visible(b.table.header[c]))
        throw Error(where + ", header column " + std::to_string(c + 1) + ": parsed '" + p.header[c] +
                    "', expected '" + visible(b.table.header[c]) + "'");
    for (std::size_t r = 0; r < p.rows.size(); ++r)
      for (std::size_t c = 0; c < p.header.size(); ++c) {
        const std::string want = visible(b.table.rows[r][c]);
        if (p.rows[r].at(c) != want)
          throw Error(where + ", row " + std::to_string(r + 1) + ", column " + std::to_string(c + 1) + ": parsed '" +
                      p.rows[r][c] + "', expected '" + want + "'");
      }
  }
  if (index != parsed.size()) throw Error("the sheet's Markdown holds " + std::to_string(parsed.size()) +
                                          " tables, the sheet " + std::to_string(index));
}

}  // namespace labbook::report
