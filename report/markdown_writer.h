#pragma once
#include <string>

#include "sheet.h"

namespace labbook::report {

/// GitHub-flavoured Markdown for the sheet. Table cells are escaped ('|', newlines) so
/// that cmark-gfm parses back exactly the cells of the model (checked by validate_markdown).
std::string to_markdown(const Sheet&);

/// Escapes one table cell.
std::string escape_cell(const std::string& text);

}  // namespace labbook::report
