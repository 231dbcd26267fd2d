#pragma once
// The one file of labbook that talks to cmark-gfm: parse GitHub-flavoured Markdown (tables on)
// and render authored prose as HTML.
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
