#pragma once
/// @file
/// The lab sheet as a document model, independent of output format: headings, Markdown
/// paragraphs and tables of plain-text cells, plus the sheet's numbers as JSON. Writers
/// (markdown_writer, html_writer) only format it.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace labbook::report {

struct Table {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;   ///< each row has header.size() cells
};

struct Block {
  enum class Kind { Heading, Markdown, Table };
  Kind kind = Kind::Markdown;
  int level = 2;          ///< for headings
  std::string text;       ///< heading text or Markdown
  Table table;
};

/// A picture the sheet links to, written next to it.
struct Figure {
  std::string file;       ///< name relative to the sheet, e.g. "lab4.warp-1.svg"
  std::string svg;
};

struct Sheet {
  std::string title;
  std::vector<Block> blocks;
  std::vector<Figure> figures;
  nlohmann::json data;    ///< every number shown, machine-readable (reports/labN.json)

  void heading(int level, std::string text) { blocks.push_back({Block::Kind::Heading, level, std::move(text), {}}); }
  void markdown(std::string text) { blocks.push_back({Block::Kind::Markdown, 0, std::move(text), {}}); }
  void table(Table t) { blocks.push_back({Block::Kind::Table, 0, {}, std::move(t)}); }
};

}  // namespace labbook::report
