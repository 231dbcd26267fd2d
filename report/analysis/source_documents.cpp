#include "source_documents.h"

#include "labbook/model/atomic_file.h"
#include "labbook/model/toml_reader.h"

namespace labbook::report {

std::string SourceDocument::summary() const {
  std::string out = "« " + title + " »";
  if (!title_en.empty()) out += " (" + title_en + ")";
  out += author.empty() ? "; no author named" : "; " + author;
  out += year ? "; " + std::to_string(year) + (year_basis.rfind("estimated", 0) == 0 ? " (estimated)" : "")
              : "; no year given";
  return out + "; " + language;
}

std::vector<SourceDocument> load_source_documents(const std::string& path) {
  const toml::table root = parse_toml(read_file(path), path);
  const TomlReader top(root, path, "sources");
  std::vector<SourceDocument> out;
  for (const toml::table* t : top.tables("source")) {
    const TomlReader r(*t, path, "[[source]]");
    r.only({"file", "short", "title", "title_en", "author", "year", "year_basis", "language", "url", "note"});
    SourceDocument d;
    d.file = r.string("file");
    d.short_name = r.string("short");
    d.title = r.string("title");
    d.title_en = r.string("title_en", false);
    d.author = r.string("author", false);
    d.year = static_cast<int>(r.number("year", false).value_or(0));
    d.year_basis = r.string("year_basis", false);
    d.language = r.string("language");
    d.url = r.string("url", false);
    d.note = r.string("note", false);
    for (const auto& other : out)
      if (other.file == d.file || other.short_name == d.short_name) r.fail("file", "names a document listed twice");
    out.push_back(std::move(d));
  }
  return out;
}

const SourceDocument* cited_document(const std::vector<SourceDocument>& sources, const std::string& citation) {
  const std::string file = citation.substr(0, citation.find(','));
  for (const auto& s : sources)
    if (s.file == file) return &s;
  return nullptr;
}

}  // namespace labbook::report
