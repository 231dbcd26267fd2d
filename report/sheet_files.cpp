#include "sheet_files.h"

#include "cmark_document.h"
#include "format.h"
#include "labbook/model/atomic_file.h"
#include "markdown_writer.h"

namespace labbook::report {

std::string html_page(const std::string& title, const std::string& body) {
  return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" + escape_markup(title) +
         "</title>\n<style>\n"
         "body{font-family:system-ui,sans-serif;max-width:72rem;margin:2rem auto;padding:0 1rem;line-height:1.45;color:#222}\n"
         "table{border-collapse:collapse;margin:1rem 0;font-size:.9rem}\n"
         "th,td{border:1px solid #ccc;padding:.3rem .5rem;vertical-align:top;text-align:left}\n"
         "th{background:#f2f2f2}\nblockquote{border-left:4px solid #e0a000;background:#fff8e0;margin:1rem 0;padding:.5rem 1rem}\n"
         "code{background:#f4f4f4;padding:0 .2rem}\n</style>\n</head>\n<body>\n" +
         body + "</body>\n</html>\n";
}

SheetFiles write_sheet(const Sheet& sheet, const std::string& folder, const std::string& name) {
  const std::string markdown = to_markdown(sheet);
  validate_markdown(sheet, markdown);
  SheetFiles files{folder + "/" + name + ".md", folder + "/" + name + ".html", folder + "/" + name + ".json"};
  write_file_atomically(files.markdown, markdown);
  write_file_atomically(files.html, html_page(sheet.title, markdown_to_html(markdown)));
  write_file_atomically(files.json, sheet.data.dump(1) + "\n");
  for (const auto& f : sheet.figures) write_file_atomically(folder + "/" + f.file, f.svg);
  return files;
}

}  // namespace labbook::report
