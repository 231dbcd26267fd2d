#pragma once
/// @file
/// The page around a sheet's HTML body (html_writer.h): one shared stylesheet (labbook.css,
/// written next to the pages), an optional navigation bar between the workbook's pages, links
/// to sibling Markdown files turned into links to their HTML, CUDA code blocks highlighted, an
/// anchor on every heading and a contents box under the title. Pages load nothing from the
/// network, so they work from file://.
#include <string>
#include <vector>

namespace labbook::report {

struct PageLink {
  std::string file;    ///< a sibling page's name without extension, e.g. "lab4"
  std::string label;
};

/// The bar above each workbook page: the index first, then every lab.
struct Navigation {
  std::vector<PageLink> links;
  std::string current;   ///< the file of this page, shown as the current one
};

/// The complete page around `body` (html_body()).
std::string html_page(const std::string& title, const std::string& body, const Navigation& navigation = {});

/// The stylesheet every page links to, as labbook.css.
const std::string& stylesheet();
inline constexpr const char* kStylesheetFile = "labbook.css";

/// Gives every <h2> to <h4> an id (from its text, unique on the page) and a "#" link to itself;
/// `contents`, if given, receives an <ol> listing the h2s with their h3s nested, or "" for a
/// page of fewer than three such headings.
std::string anchor_headings(const std::string& body, std::string* contents = nullptr);

/// A heading's anchor name: its text without markup or entities, lower case, every run of
/// other characters one '-' ("Lab 4 — Global memory" -> "lab-4-global-memory").
std::string heading_slug(const std::string& html);

/// Keywords, comments, numbers and strings of C++/CUDA code blocks (class
/// "language-cuda", "language-cpp" or "language-c") wrapped in <span class="tok-...">.
std::string highlight_code_blocks(const std::string& html);

}  // namespace labbook::report
