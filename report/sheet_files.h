#pragma once
// Writes a sheet's files: NAME.md (validated through cmark-gfm), NAME.html and NAME.json,
// each atomically.
#include <string>

#include "sheet.h"

namespace labbook::report {

struct SheetFiles {
  std::string markdown, html, json;
};

/// Writes <folder>/<name>.{md,html,json}. Throws labbook::Error (nothing is replaced
/// if the Markdown fails validation).
SheetFiles write_sheet(const Sheet& sheet, const std::string& folder, const std::string& name);

/// The HTML page around cmark-gfm's body.
std::string html_page(const std::string& title, const std::string& body);

}  // namespace labbook::report
