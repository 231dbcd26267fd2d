#pragma once
/// @file
/// The source documents the labs cite (labs/sources.toml): for each file, a short name a
/// student can read, its title, author, year and language, taken from the document's own text.
/// Sheets cite by the short name and list the documents they cite.
#include <string>
#include <vector>

namespace labbook::report {

struct SourceDocument {
  std::string file;        ///< e.g. "003_c67e0f909fb510d6.txt"
  std::string short_name;  ///< e.g. "Ottawa CEG 4536 ch. 4"
  std::string title, title_en, author, language, url, note;
  int year = 0;            ///< 0: the text gives none
  std::string year_basis;  ///< how the year is known ("estimated: ...")

  /// What a reader needs to find the document: « title » (English title); author; year;
  /// language (the short name and the file name go beside it).
  std::string summary() const;
};

/// Parses and validates a sources file. Throws labbook::Error "path:line: what is wrong".
std::vector<SourceDocument> load_source_documents(const std::string& path);

/// The document a citation names ("003_....txt, « section »" names 003_....txt), or nullptr.
const SourceDocument* cited_document(const std::vector<SourceDocument>&, const std::string& citation);

}  // namespace labbook::report
