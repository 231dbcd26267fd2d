#pragma once
/// @file
/// The sheet's HTML body, written from its blocks as the Markdown writer writes its text: the
/// structure (sections, folds, tables whose cells name their column) comes from the blocks,
/// and only authored Markdown (the lab's prose) goes through cmark-gfm.
#include <string>

#include "sheet.h"

namespace labbook::report {

/// The body of the sheet's page: headings, folded sections as <details class="section">, a
/// fold as <details class="folded">, every table cell with a data-label naming its column.
/// html_page() adds the anchors, the contents and the page around it.
std::string html_body(const Sheet& sheet);

/// `text` as HTML inline content: plain spans escaped, authored spans through cmark-gfm.
std::string inline_html(const Text& text);

}  // namespace labbook::report
