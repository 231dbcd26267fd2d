#include "html_page.h"

#include <cctype>
#include <regex>
#include <set>

#include "format.h"
#include "verdict_badge.h"

namespace labbook::report {

namespace {

/// Highlights one code block's text, which cmark-gfm has already HTML-escaped.
std::string highlight(const std::string& code) {
  static const std::set<std::string> keywords = {
      "__global__", "__device__", "__host__", "__shared__", "__constant__", "__syncthreads", "__restrict__",
      "auto", "bool", "break", "char", "const", "constexpr", "continue", "double", "else", "float", "for", "if",
      "int", "long", "return", "size_t", "static", "struct", "template", "typename", "unsigned", "void", "while",
      "blockIdx", "blockDim", "threadIdx", "gridDim"};
  std::string out;
  std::size_t i = 0;
  const std::size_t n = code.size();
  auto span = [&](const char* kind, const std::string& text) { out += "<span class=\"tok-" + std::string(kind) + "\">" + text + "</span>"; };
  while (i < n) {
    const char c = code[i];
    if (c == '/' && i + 1 < n && code[i + 1] == '/') {           // comment to the end of the line
      const std::size_t end = std::min(code.find('\n', i), n);
      span("comment", code.substr(i, end - i));
      i = end;
    } else if (code.compare(i, 6, "&quot;") == 0) {              // string literal, escaped quotes
      const std::size_t end = code.find("&quot;", i + 6);
      const std::size_t stop = end == std::string::npos ? n : end + 6;
      span("string", code.substr(i, stop - i));
      i = stop;
    } else if (c == '&') {                                       // other entities pass through whole
      const std::size_t end = code.find(';', i);
      const std::size_t stop = end == std::string::npos ? i + 1 : end + 1;
      out += code.substr(i, stop - i);
      i = stop;
    } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      std::size_t end = i;
      while (end < n && (std::isalnum(static_cast<unsigned char>(code[end])) || code[end] == '_')) ++end;
      const std::string word = code.substr(i, end - i);
      if (keywords.count(word)) span("keyword", word);
      else out += word;
      i = end;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      std::size_t end = i;
      while (end < n && (std::isalnum(static_cast<unsigned char>(code[end])) || code[end] == '.')) ++end;
      span("number", code.substr(i, end - i));
      i = end;
    } else {
      out += c;
      ++i;
    }
  }
  return out;
}

/// href="lab4.md" -> href="lab4.html", for links between sibling pages.
std::string html_links(const std::string& body) {
  static const std::regex markdown_link(R"(href="([A-Za-z0-9_.-]+)\.md(#[^"]*)?")");
  return std::regex_replace(body, markdown_link, "href=\"$1.html$2\"");
}

/// Calls `each(inner_start, inner_end)` for every `open`...`close` element in turn, puts
/// what it returns in the element's place and copies the text between them. A scan, not a regex: libstdc++'s regex recurses
/// once a character and overflows the stack on a page of long tables.
template <typename Each>
std::string each_element(const std::string& html, const std::string& open, const std::string& close, Each each) {
  std::string out;
  std::size_t at = 0;
  for (std::size_t start = html.find(open); start != std::string::npos; start = html.find(open, at)) {
    const std::size_t inner = start + open.size(), inner_end = html.find(close, inner);
    if (inner_end == std::string::npos) break;
    out += html.substr(at, start - at);
    out += each(inner, inner_end);
    at = inner_end + close.size();
  }
  return out + html.substr(at);
}

}  // namespace

std::string heading_slug(const std::string& html) {
  std::string out;
  bool dash = false;
  for (std::size_t i = 0; i < html.size(); ++i) {
    if (html[i] == '<' || html[i] == '&') {   // a tag or an entity stands for no letter here
      const std::size_t end = html.find(html[i] == '<' ? '>' : ';', i);
      if (end != std::string::npos) {
        i = end;
        dash = !out.empty();
        continue;
      }
    }
    const auto c = static_cast<unsigned char>(html[i]);
    if (std::isalnum(c)) {
      if (dash) out += '-';
      out += static_cast<char>(std::tolower(c));
      dash = false;
    } else {
      dash = !out.empty();
    }
  }
  return out.empty() ? "section" : out;
}

std::string anchor_headings(const std::string& body, std::string* contents) {
  static const std::regex heading(R"re(<h([2-4])>([\s\S]*?)</h\1>)re");
  std::set<std::string> taken;
  std::string out, entries;
  int open_level = 0;   // 2 while a second-level entry's list of third-level ones is open
  std::size_t last = 0, count = 0;
  for (std::sregex_iterator it(body.begin(), body.end(), heading), end; it != end; ++it) {
    const auto& m = *it;
    const std::string level = m[1].str(), text = m[2].str();
    std::string id = heading_slug(text);
    for (int n = 2; taken.count(id); ++n) id = heading_slug(text) + "-" + std::to_string(n);
    taken.insert(id);
    out += body.substr(last, static_cast<std::size_t>(m.position()) - last);
    out += "<h" + level + " id=\"" + id + "\">" + text + " <a class=\"anchor\" href=\"#" + id +
           "\" aria-label=\"Link to this section\">#</a></h" + level + ">";
    last = static_cast<std::size_t>(m.position() + m.length());
    if (level == "4") continue;
    ++count;
    const std::string item = "<li><a href=\"#" + id + "\">" + text + "</a>";
    if (level == "2") {
      entries += std::string(open_level == 3 ? "</ol></li>" : open_level == 2 ? "</li>" : "") + item;
      open_level = 2;
    } else {
      entries += std::string(open_level == 2 ? "<ol>" : "") + item + "</li>";
      open_level = open_level == 0 ? 0 : 3;
    }
  }
  entries += open_level == 3 ? "</ol></li>" : open_level == 2 ? "</li>" : "";
  if (contents) *contents = count < 3 ? "" : "<ol>" + entries + "</ol>";
  return out + body.substr(last);
}

/// Places where text may wrap that the browser would not choose: after a `/` or `_` joining
/// two words ("readSegment/offset=11", "gld_transactions_per_request", "transactions/request"),
/// after a namespace ("labbook::kernels::MatMulKernel<float>"), after a comma between sizes
/// ("m=1024,k=2048"), or before a word's capital inside a camelCase name of 16 letters or more
/// ("readSegment|Uncached"), so that a results table fits beside the contents on a 1280 px
/// screen instead of hiding its verdicts behind a scroll, and a long entry of the contents wraps
/// between names rather than inside one. Text inside tables only, unless `everywhere`; never a
/// tag or an entity (cmark writes four, all short and lower case); "GB/s" and "(fermi_ca)" keep
/// together (the next word is shorter than 3 letters), and so do numbers ("4,194,304") and
/// shorter names ("cudaMemcpyAsync"). Copied text is unchanged: `<wbr>` adds no character.
std::string with_break_points(const std::string& html, bool everywhere) {
  const auto lower = [](char c) { return c >= 'a' && c <= 'z'; };
  const auto upper = [](char c) { return c >= 'A' && c <= 'Z'; };
  const auto letter = [&](char c) { return lower(c) || upper(c); };
  const auto alnum = [&](char c) { return letter(c) || (c >= '0' && c <= '9'); };
  const auto name_length = [&](std::size_t at) {   // letters and digits around `at`
    std::size_t first = at, last = at;
    while (first > 0 && alnum(html[first - 1])) --first;
    while (last + 1 < html.size() && alnum(html[last + 1])) ++last;
    return last - first + 1;
  };
  std::string out;
  out.reserve(html.size());
  int tables = 0;   // tables open at this point
  for (std::size_t i = 0; i < html.size(); ++i) {
    const char c = html[i];
    if (c == '<') {   // a tag, copied whole; it may open or close a table
      const std::size_t end = html.find('>', i);
      const std::size_t stop = end == std::string::npos ? html.size() : end + 1;
      if (html.compare(i, 6, "<table") == 0) ++tables;
      else if (html.compare(i, 8, "</table>") == 0 && tables > 0) --tables;
      out.append(html, i, stop - i);
      i = stop - 1;
      continue;
    }
    out += c;
    if ((tables == 0 && !everywhere) || i < 2 || i + 3 >= html.size()) continue;
    const char before = html[i - 1];
    const bool joins_words =
        (c == '/' || c == '_') && alnum(before) && letter(html[i + 1]) && letter(html[i + 2]) && letter(html[i + 3]);
    const bool lists_sizes = c == ',' && alnum(before) && letter(html[i + 1]) && html[i + 2] == '=';   // "m=1024,k=2048"
    const bool ends_scope = c == ':' && before == ':' && alnum(html[i - 2]) && letter(html[i + 1]);   // "labbook::kernels::"
    const bool ends_camel_word = lower(c) && lower(before) && lower(html[i - 2]) && upper(html[i + 1]) &&
                                 lower(html[i + 2]) && lower(html[i + 3]) && name_length(i) >= 16;
    if (joins_words || lists_sizes || ends_scope || ends_camel_word) out += "<wbr>";
  }
  return out;
}

std::string highlight_code_blocks(const std::string& html) {
  std::string out = html;
  for (const char* language : {"cuda", "cpp", "c"}) {
    const std::string open = std::string("<pre><code class=\"language-") + language + "\">";
    out = each_element(out, open, "</code></pre>", [&, in = out](std::size_t begin, std::size_t end) {
      return open + highlight(in.substr(begin, end - begin)) + "</code></pre>";
    });
  }
  return out;
}

const std::string& stylesheet() {
  static const std::string css =
      "/* labbook's pages: readable tables, figures sized to the page, highlighted code, anchored headings, contents. */\n"
      "body{font-family:system-ui,sans-serif;max-width:76rem;margin:0 auto 2rem;padding:0 1rem;line-height:1.45;color:#222;"
      "overflow-wrap:break-word}\n"
      // A sheet is read as a page of questions: spacing that separates, no more.
      "p,ul,ol{margin:.6rem 0}h1{font-size:1.8rem;margin:1rem 0 .6rem}h2{font-size:1.35rem;margin:1.1rem 0 .45rem}"
      "h3{font-size:1.1rem;margin:1rem 0 .4rem}\n"
      "nav.labbook{position:sticky;top:0;background:#fafafa;border-bottom:1px solid #ddd;padding:.4rem 0;margin-bottom:1rem;"
      "display:flex;flex-wrap:wrap;gap:.2rem .9rem;font-size:.9rem;z-index:1}\n"
      "nav.labbook a{text-decoration:none;color:#0645ad}\n"
      "nav.labbook a.current{font-weight:bold;color:#222}\n"
      "table{border-collapse:collapse;margin:.6rem 0;font-size:.85rem;display:block;overflow-x:auto;max-width:100%}\n"
      "th,td{border:1px solid #ccc;padding:.2rem .4rem;vertical-align:top;text-align:left;line-height:1.3}\n"
      // The summary's verdict and its section link stay on one line; the measured value gets room for it.
      "table.summary td:nth-child(3){white-space:nowrap}table.summary td:nth-child(2){min-width:16rem}\n"
      "@media (max-width:600px){table.summary td:nth-child(3){white-space:normal}}\n"
      // A table of eight columns or more (a compiler's report, a results table with a ratio
      // column) spends less on padding, so that it fits beside the contents at 1280 px.
      "table:has(tr>:nth-child(8)) :is(th,td){padding:.2rem .3rem}\n"
      "table:has(tr>:nth-child(10)){font-size:.78rem}\n"
      "th{background:#f2f2f2}\ntd{background:#fff}\ntr:nth-child(even) td{background:#fcfcfc}\n"
      // A table wider than the page scrolls; its first column (what each row is) stays in view.
      "th:first-child,td:first-child{position:sticky;left:0;z-index:0;box-shadow:1px 0 0 #ccc}\n"
      "img{max-width:100%;height:auto}\n"
      "blockquote{border-left:4px solid #e0a000;background:#fff8e0;margin:1rem 0;padding:.5rem 1rem}\n"
      "code{background:#f4f4f4;padding:0 .2rem;font-size:.92em}\n"
      "pre{background:#f6f8fa;border:1px solid #e1e4e8;padding:.7rem;overflow-x:auto}\n"
      "pre code{background:none;padding:0}\n"
      ".tok-keyword{color:#8a2be2;font-weight:600}\n.tok-comment{color:#6a737d;font-style:italic}\n"
      ".tok-number{color:#005cc5}\n.tok-string{color:#032f62}\n"
      "a.term{color:inherit;text-decoration:underline dotted #888;text-underline-offset:.15em}\n"
      "a.anchor{margin-left:.35rem;color:#999;text-decoration:none;font-weight:normal;opacity:.4}\n"
      "h2:hover a.anchor,h3:hover a.anchor,h4:hover a.anchor,a.anchor:focus{opacity:1}\n"
      "nav.contents{border:1px solid #ddd;background:#fafafa;padding:.3rem .8rem;margin:1rem 0;font-size:.9rem}\n"
      "nav.contents summary{cursor:pointer;font-weight:600}\n"
      "nav.contents ol{margin:.3rem 0;padding-left:1.3rem;list-style:none}\nnav.contents a{text-decoration:none;color:#0645ad}\n"
      "@media (max-width:600px){h1{font-size:1.5rem}h2{font-size:1.25rem}body{padding:0 .6rem}}\n"
      // On a phone a chart drawn for 1280 px would shrink its text to a few pixels: pictures
      // keep at least 56rem and scroll sideways inside their paragraph instead.
      "@media (max-width:600px){p:has(>img){overflow-x:auto}p>img{max-width:none;width:max(100%,56rem)}}\n"
      // Contents: a menu under the title on narrow screens, a sidebar that stays in view on wide ones.
      "nav.contents.sidebar{display:none}\n"
      "nav.contents.sidebar p{font-weight:600;margin:.3rem 0}\n"
      "@media (min-width:1100px){body.with-contents{max-width:96rem}"
      "div.layout{display:grid;grid-template-columns:15rem minmax(0,1fr);gap:0 2rem}"
      "nav.contents.sidebar{display:block;position:sticky;top:2.8rem;align-self:start;max-height:calc(100vh - 3.5rem);"
      "overflow-y:auto;margin:1rem 0}nav.contents.menu{display:none}}\n"
      + std::string(badge_css()) +
      "details.folded{margin:.2rem 0}details.folded summary{cursor:pointer;color:#0645ad;font-size:.92rem}\n"
      // A folded section (background, setup, references) opens under its heading.
      "details.section>summary{cursor:pointer}details.section>summary>h2{display:inline}\n"
      // A phone stacks each row: one cell a line, its column's name before it, so that no
      // verdict hides behind a sideways scroll.
      "@media (max-width:600px){table,tbody,tr,td{display:block}table{overflow-x:visible}thead{display:none}"
      "tr{border:1px solid #ccc;margin:.5rem 0}td{border:0;border-bottom:1px solid #eee}"
      "th:first-child,td:first-child{position:static;box-shadow:none;font-weight:600}"
      "td[data-label]:not([data-label=\"\"])::before{content:attr(data-label) \": \";color:#555;font-weight:normal}}\n"
      "@media print{nav.labbook,nav.contents,a.anchor{display:none}table{display:table;overflow:visible}"
      "details.folded::details-content,details.section::details-content{content-visibility:visible;display:block}"
      "tr,img{page-break-inside:avoid}}\n";
  return css;
}

std::string html_page(const std::string& title, const std::string& body, const Navigation& navigation) {
  std::string nav;
  if (!navigation.links.empty()) {
    nav = "<nav class=\"labbook\">";
    for (const auto& link : navigation.links)
      nav += "<a href=\"" + escape_markup(link.file) + ".html\"" + (link.file == navigation.current ? " class=\"current\"" : "") +
             ">" + escape_markup(link.label) + "</a>";
    nav += "</nav>\n";
  }
  // Every section gets an anchor; a page of three or more gets its contents: a menu under its
  // title and a sidebar, of which the stylesheet shows one by the screen's width (no script).
  std::string contents;
  std::string text =
      anchor_headings(with_break_points(highlight_code_blocks(html_links(body)), false), &contents);
  if (!contents.empty()) {
    contents = with_break_points(contents, true);
    const std::size_t title_end = text.find("</h1>");
    text.insert(title_end == std::string::npos ? 0 : title_end + 5 + (text.compare(title_end + 5, 1, "\n") == 0 ? 1 : 0),
                "<nav class=\"contents menu\" aria-label=\"Contents\"><details><summary>Contents</summary>" + contents +
                    "</details></nav>\n");
    text = "<div class=\"layout\">\n<nav class=\"contents sidebar\" aria-label=\"Contents\"><p>Contents</p>" + contents +
           "</nav>\n<main>\n" + text + "</main>\n</div>\n";
  }
  return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>" +
         escape_markup(title) + "</title>\n<link rel=\"stylesheet\" href=\"" + kStylesheetFile + "\">\n</head>\n<body" +
         (contents.empty() ? "" : " class=\"with-contents\"") + ">\n" + nav + text + "</body>\n</html>\n";
}

}  // namespace labbook::report
