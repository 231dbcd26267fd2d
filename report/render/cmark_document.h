#pragma once
// labbook's one cmark-gfm setup: parse GitHub-flavoured Markdown (tables on) and render
// authored prose as HTML. The tests' table check (tests/support) walks what it parses.
#include <memory>
#include <string>

struct cmark_node;

namespace labbook::report {

struct CmarkNodeDeleter {
  void operator()(cmark_node* node) const;
};
/// A document as cmark-gfm parsed it, freed with it.
using CmarkDocument = std::unique_ptr<cmark_node, CmarkNodeDeleter>;

/// `markdown` parsed with the GFM table and strikethrough extensions and no autolinks: the
/// one parse setup the HTML and the tests' table checks share.
CmarkDocument parse_markdown(const std::string& markdown);

/// HTML body for `markdown` (GFM tables and strikethrough; no autolinks).
std::string markdown_to_html(const std::string& markdown);

}  // namespace labbook::report
