#include "sheet_files.h"

#include "html_writer.h"
#include "json_writer.h"
#include "labbook/model/atomic_file.h"
#include "markdown_writer.h"

namespace labbook::report {

SheetFiles write_sheet(const Sheet& sheet, const std::string& folder, const std::string& name,
                       const Navigation& navigation, const Glossary* glossary) {
  const std::string markdown = to_markdown(sheet);
  SheetFiles files{folder + "/" + name + ".md", folder + "/" + name + ".html", folder + "/" + name + ".json"};
  write_file_atomically(files.markdown, markdown);
  write_file_atomically(folder + "/" + kStylesheetFile, stylesheet());
  const std::string body = html_body(sheet);
  write_file_atomically(files.html, html_page(sheet.title, glossary ? link_glossary_terms(body, *glossary) : body, navigation));
  write_file_atomically(files.json, sheet_json(sheet).dump(1) + "\n");
  for (const auto& f : sheet.figures) write_file_atomically(folder + "/" + f.file, f.svg);
  return files;
}

SheetFiles write_glossary(const Glossary& glossary, const std::string& folder, const Navigation& navigation) {
  return write_sheet(build_glossary_sheet(glossary), folder, kGlossaryPage, navigation);
}

}  // namespace labbook::report
