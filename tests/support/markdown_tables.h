#pragma once
// The sheet's Markdown read back by a real parser, for tests: its tables, and the check that
// cmark-gfm sees exactly the sheet's tables, so that the writer's escaping holds for any name.
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

}  // namespace labbook::report
