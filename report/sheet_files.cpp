#include "sheet_files.h"

#include "cmark_document.h"
#include "labbook/model/atomic_file.h"
#include "markdown_writer.h"

namespace labbook::report {

SheetFiles write_sheet(const Sheet& sheet, const std::string& folder, const std::string& name,
                       const Navigation& navigation) {
  const std::string markdown = to_markdown(sheet);
  validate_markdown(sheet, markdown);
  SheetFiles files{folder + "/" + name + ".md", folder + "/" + name + ".html", folder + "/" + name + ".json"};
  write_file_atomically(files.markdown, markdown);
  write_file_atomically(folder + "/" + kStylesheetFile, stylesheet());
  write_file_atomically(files.html, html_page(sheet.title, markdown_to_html(markdown), navigation));
  write_file_atomically(files.json, sheet.data.dump(1) + "\n");
  for (const auto& f : sheet.figures) write_file_atomically(folder + "/" + f.file, f.svg);
  return files;
}

}  // namespace labbook::report
