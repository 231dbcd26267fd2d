#pragma once
// Writes a sheet's files: NAME.md (validated through cmark-gfm), NAME.html, NAME.json and
// its figures, each atomically, and the shared stylesheet beside them.
#include <string>

#include "html_page.h"
#include "sheet.h"

namespace labbook::report {

struct SheetFiles {
  std::string markdown, html, json;
};

/// Writes <folder>/<name>.{md,html,json}. Throws labbook::Error (nothing is replaced
/// if the Markdown fails validation).
SheetFiles write_sheet(const Sheet& sheet, const std::string& folder, const std::string& name,
                       const Navigation& navigation = {});

}  // namespace labbook::report
