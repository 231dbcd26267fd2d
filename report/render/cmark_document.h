#pragma once
// The one file that talks to cmark-gfm: parse GitHub-flavoured Markdown (tables on),
// read back its tables, and render HTML.
#include <string>
#include <vector>

#include "sheet.h"

namespace labbook::report {

/// A table as cmark-gfm parsed it: header cells then body rows, cell text as plain text.
struct ParsedTable {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
};

/// Every table in `markdown`, in document order.
std::vector<ParsedTable> parse_tables(const std::string& markdown);

/// Checks that cmark-gfm parses `markdown` into exactly the sheet's tables (same shape,
/// same cell text). Throws labbook::Error naming the first table and cell that differ.
void validate_markdown(const Sheet& sheet, const std::string& markdown);

/// HTML body for `markdown` (GFM tables and strikethrough; no autolinks).
std::string markdown_to_html(const std::string& markdown);

}  // namespace labbook::report
