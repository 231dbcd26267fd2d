#pragma once
/// @file
/// GitHub-flavoured Markdown for a sheet. Text built from data (Span) is escaped here and
/// only here, so that cmark-gfm parses back exactly the text of the model (checked by
/// the tests' validate_markdown, tests/support) whatever characters a kernel or range name holds.
#include <string>

#include "sheet.h"

namespace labbook::report {

std::string to_markdown(const Sheet&);

/// `text` as Markdown inline content that reads as `text` and nothing else: no emphasis,
/// link, HTML, entity or table cell boundary. Newlines become spaces.
std::string escape_inline(const std::string& text);

/// A line or list item that starts no block of its own: leading blanks (a code block from
/// four) are dropped, and '#', '-', '+', '>', '=' or a "1." / "1)" ordinal at its start are
/// escaped.
std::string line_start_safe(std::string line);

}  // namespace labbook::report
