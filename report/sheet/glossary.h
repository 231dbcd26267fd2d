#pragma once
/// @file
/// The workbook's glossary (labs/glossary.toml): its page, and links from the first use of
/// each term in a sheet's HTML to the term's entry there.
#include <string>
#include <vector>

#include "sheet.h"

namespace labbook::report {

struct GlossaryTerm {
  std::string name;                 ///< the entry's heading, e.g. "sector"
  std::vector<std::string> forms;   ///< the words linked to it: the name, then its other forms
  std::string text;                 ///< the explanation, Markdown
  int line = 0;                     ///< where it is defined
};

struct Glossary {
  std::string path;
  std::vector<GlossaryTerm> terms;
};

/// Reads a glossary file. Throws labbook::Error "file:line: ..." for a missing name or text,
/// an unknown key, or a form that two terms claim.
Glossary load_glossary(const std::string& path);

/// The glossary page: a section per term, in file order.
Sheet build_glossary_sheet(const Glossary& glossary);
inline constexpr const char* kGlossaryPage = "glossary";

/// `html` (a page body) with the first use of each term, as a whole word in any case and
/// outside links, code, headings, table headers and pictures, linked to its entry on
/// `page`.html; the link's title is the explanation's first sentence.
std::string link_glossary_terms(const std::string& html, const Glossary& glossary, const std::string& page = kGlossaryPage);

}  // namespace labbook::report
