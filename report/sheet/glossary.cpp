#include "glossary.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "format.h"
#include "html_page.h"
#include "labbook/model/atomic_file.h"
#include "labbook/model/toml_reader.h"

namespace labbook::report {

namespace {

std::string lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

/// Characters that continue a name rather than end a word: "copy/pinned/h2d" or
/// "L2-resident" hold no term, "sector." and "(L2)" do.
bool joins_word(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '/' || c == '=' || c == '-' || c == '+';
}

bool word_boundary_before(const std::string& text, std::size_t at) {
  if (at == 0) return true;
  const char c = text[at - 1];
  return !joins_word(c) && c != '.';
}

bool word_boundary_after(const std::string& text, std::size_t end) {
  if (end >= text.size()) return true;
  const char c = text[end];
  if (c == '.') return end + 1 >= text.size() || !std::isalnum(static_cast<unsigned char>(text[end + 1]));
  return !joins_word(c);
}

/// The explanation's first sentence without Markdown's marks, for a link's tooltip.
std::string first_sentence(const std::string& markdown) {
  std::string out;
  for (std::size_t i = 0; i < markdown.size(); ++i) {
    const char c = markdown[i];
    if (c == '`' || c == '*') continue;
    out += c;
    if (c == '.' && (i + 1 == markdown.size() || markdown[i + 1] == ' ')) break;
  }
  return out;
}

/// Elements whose text is never linked: links themselves, code, headings, table headers,
/// navigation and pictures.
bool is_skipped_element(const std::string& name) {
  static const std::set<std::string> skipped = {"a",  "code", "pre", "h1", "h2",    "h3",     "h4",    "h5",
                                                "h6", "th",   "nav", "svg", "title", "script", "style", "summary"};
  return skipped.count(name) > 0;
}

}  // namespace

Glossary load_glossary(const std::string& path) {
  const toml::table top = parse_toml(read_file(path), path);
  const TomlReader file(top, path, "glossary");
  file.only({"term"});
  Glossary glossary{path, {}};
  std::map<std::string, std::string> owner;   // a form (lower case) -> the term that links it
  for (const toml::table* t : file.tables("term")) {
    const TomlReader r(*t, path, "[[term]]");
    r.only({"name", "also", "text"});
    GlossaryTerm term{r.string("name"), {}, r.string("text"), r.line()};
    if (term.name.empty()) r.fail("name", "is empty");
    if (term.text.empty()) r.fail("text", "is empty");
    term.forms.push_back(term.name);
    for (const auto& form : r.strings("also", false)) term.forms.push_back(form);
    for (const auto& form : term.forms) {
      const auto [it, added] = owner.emplace(lower(form), term.name);
      if (!added) r.fail(form == term.name ? "name" : "also", "'" + form + "' is already a form of '" + it->second + "'");
    }
    glossary.terms.push_back(std::move(term));
  }
  if (glossary.terms.empty()) throw Error(path + ": no [[term]]");
  return glossary;
}

Sheet build_glossary_sheet(const Glossary& glossary) {
  Sheet sheet;
  sheet.title = "Glossary";
  sheet.heading(1, "Glossary");
  sheet.markdown("The terms the sheets use, in the meaning they use them. In the HTML sheets, the first use of each "
                 "term links here.");
  for (const auto& term : glossary.terms) {
    sheet.heading(2, term.name);
    sheet.markdown(term.text);
    sheet.data["terms"].push_back({{"name", term.name}, {"forms", term.forms}, {"text", term.text}});
  }
  return sheet;
}

std::string link_glossary_terms(const std::string& html, const Glossary& glossary, const std::string& page) {
  // Every form, longest first, so that "bank conflict" wins over "bank" where both start.
  struct Form {
    std::string lower;
    const GlossaryTerm* term;
  };
  std::vector<Form> forms;
  for (const auto& term : glossary.terms)
    for (const auto& form : term.forms) forms.push_back({lower(form), &term});
  std::stable_sort(forms.begin(), forms.end(), [](const Form& a, const Form& b) { return a.lower.size() > b.lower.size(); });

  std::set<const GlossaryTerm*> linked;
  std::vector<std::string> open;   // the skipped elements we are inside
  std::string out;
  std::size_t i = 0;
  while (i < html.size()) {
    if (html[i] == '<') {   // a tag: copied, and tracked if it opens or closes a skipped element
      const std::size_t end = html.find('>', i);
      if (end == std::string::npos) break;
      const std::string tag = html.substr(i, end + 1 - i);
      const bool closing = tag.size() > 1 && tag[1] == '/';
      std::size_t name_start = closing ? 2 : 1, name_end = name_start;
      while (name_end < tag.size() && std::isalnum(static_cast<unsigned char>(tag[name_end]))) ++name_end;
      const std::string name = lower(tag.substr(name_start, name_end - name_start));
      if (is_skipped_element(name) && tag[tag.size() - 2] != '/') {
        if (!closing) open.push_back(name);
        else if (!open.empty() && open.back() == name) open.pop_back();
      }
      out += tag;
      i = end + 1;
      continue;
    }
    const std::size_t next_tag = std::min(html.find('<', i), html.size());
    const std::string text = html.substr(i, next_tag - i);
    i = next_tag;
    if (!open.empty() || linked.size() == glossary.terms.size()) {
      out += text;
      continue;
    }
    // Link the earliest unlinked term in this run of text, then look again after it.
    const std::string low = lower(text);
    std::size_t from = 0;
    while (true) {
      std::size_t best = std::string::npos;
      const Form* best_form = nullptr;
      for (const auto& f : forms) {
        if (linked.count(f.term)) continue;
        for (std::size_t at = low.find(f.lower, from); at != std::string::npos; at = low.find(f.lower, at + 1)) {
          if (!word_boundary_before(low, at) || !word_boundary_after(low, at + f.lower.size())) continue;
          if (at < best) best = at, best_form = &f;
          break;
        }
      }
      if (!best_form) break;
      const GlossaryTerm& term = *best_form->term;
      out += text.substr(from, best - from);
      out += "<a class=\"term\" href=\"" + page + ".html#" + heading_slug(escape_markup(term.name)) + "\" title=\"" +
             escape_markup(first_sentence(term.text)) + "\">" + text.substr(best, best_form->lower.size()) + "</a>";
      linked.insert(&term);
      from = best + best_form->lower.size();
    }
    out += text.substr(from);
  }
  return out;
}

}  // namespace labbook::report
