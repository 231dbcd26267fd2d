#pragma once
// Writes a sheet's files: NAME.md, NAME.html, NAME.json and its figures, each atomically, and
// the shared stylesheet beside them.
#include <string>

#include "glossary.h"
#include "html_page.h"
#include "sheet.h"

namespace labbook::report {

struct SheetFiles {
  std::string markdown, html, json;
};

/// Writes <folder>/<name>.{md,html,json}; throws labbook::Error naming a file that could not
/// be written. With a glossary, the HTML links the first use of each
/// term to its page (written beside the sheet by write_glossary).
SheetFiles write_sheet(const Sheet& sheet, const std::string& folder, const std::string& name,
                       const Navigation& navigation = {}, const Glossary* glossary = nullptr);

/// Writes the glossary's page, <folder>/glossary.{md,html,json}.
SheetFiles write_glossary(const Glossary& glossary, const std::string& folder, const Navigation& navigation = {});

}  // namespace labbook::report
