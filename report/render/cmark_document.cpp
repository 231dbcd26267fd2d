#include "cmark_document.h"

#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm.h>
#include <cmark-gfm-extension_api.h>

#include <cstdlib>

namespace labbook::report {

void CmarkNodeDeleter::operator()(cmark_node* node) const { cmark_node_free(node); }

namespace {

struct ParserDeleter {
  void operator()(cmark_parser* p) const { cmark_parser_free(p); }
};

/// Parses with the GFM extensions; `extensions` receives the list to pass to renderers.
CmarkDocument parse(const std::string& markdown, cmark_llist** extensions) {
  cmark_gfm_core_extensions_ensure_registered();
  std::unique_ptr<cmark_parser, ParserDeleter> parser(cmark_parser_new(CMARK_OPT_DEFAULT));
  // No "autolink" extension: it links any "www.x" or "a@b.c" in text, names included, and
  // no escape stops it. Links in authored prose use <...>.
  for (const char* name : {"table", "strikethrough"})
    if (cmark_syntax_extension* ext = cmark_find_syntax_extension(name)) cmark_parser_attach_syntax_extension(parser.get(), ext);
  cmark_parser_feed(parser.get(), markdown.data(), markdown.size());
  CmarkDocument doc(cmark_parser_finish(parser.get()));
  if (extensions) *extensions = cmark_parser_get_syntax_extensions(parser.get());
  // The list belongs to the parser; copy it before the parser goes.
  if (extensions) {
    cmark_llist* copy = nullptr;
    for (cmark_llist* l = *extensions; l; l = l->next) copy = cmark_llist_append(cmark_get_default_mem_allocator(), copy, l->data);
    *extensions = copy;
  }
  return doc;
}

}  // namespace

CmarkDocument parse_markdown(const std::string& markdown) { return parse(markdown, nullptr); }

std::string markdown_to_html(const std::string& markdown) {
  cmark_llist* extensions = nullptr;
  CmarkDocument doc = parse(markdown, &extensions);
  char* html = cmark_render_html(doc.get(), CMARK_OPT_DEFAULT, extensions);
  std::string out = html;
  std::free(html);
  cmark_llist_free(cmark_get_default_mem_allocator(), extensions);
  return out;
}

}  // namespace labbook::report
