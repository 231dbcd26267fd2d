#pragma once
/// @file
/// The lab sheet as a document model, independent of output format: headings, authored
/// Markdown (the lab's prose), and text built from data (table cells, lines, list items) as
/// spans of plain text that the writer escapes, plus the sheet's findings, typed. Writers only
/// format it.
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sheet_records.h"
#include "verdict_badge.h"

namespace labbook::report {

/// A run of text, stored as it should read: the Markdown writer escapes it, so a kernel
/// name such as `k<float*, 4>` or `operator|` reaches the reader unchanged.
struct Span {
  /// Authored: inline Markdown from the lab data (an explanation, a reason), written as it is
  /// so that its `code` and *emphasis* render; never for names or numbers from a measurement.
  /// Badge: a verdict, written with its badge's symbol and colour; `target` is the badge's name.
  enum class Style { Plain, Strong, Code, Link, Authored, Badge };
  std::string text;
  Style style = Style::Plain;
  std::string target;   ///< Link only: a relative file name such as "lab4.md"

  Span(std::string t, Style s = Style::Plain, std::string link_target = {})   // NOLINT: text converts
      : text(std::move(t)), style(s), target(std::move(link_target)) {}
  Span(const char* t) : text(t) {}   // NOLINT
};
inline Span strong(std::string text) { return {std::move(text), Span::Style::Strong}; }
inline Span code(std::string text) { return {std::move(text), Span::Style::Code}; }
inline Span authored(std::string markdown) { return {std::move(markdown), Span::Style::Authored}; }
inline Span link(std::string text, std::string target) { return {std::move(text), Span::Style::Link, std::move(target)}; }
inline Span badge(Badge b, std::string verdict) { return {std::move(verdict), Span::Style::Badge, badge_name(b)}; }

/// Inline text built from data: a table cell, a line or a list item.
struct Text {
  std::vector<Span> spans;
  Text() = default;
  Text(std::string plain) : spans{{std::move(plain)}} {}   // NOLINT: plain text converts
  Text(const char* plain) : spans{{plain}} {}              // NOLINT
  Text(std::initializer_list<Span> s) : spans(s) {}
  /// The text a reader sees, without styling.
  std::string plain() const {
    std::string out;
    for (const auto& s : spans) out += s.text;
    return out;
  }
};

/// Starts a folded section's heading and a fold's line in the Markdown: the HTML shows what
/// follows only when the reader opens it.
inline constexpr const char* kFoldMark = "▸";

struct Table {
  std::vector<Text> header;
  std::vector<std::vector<Text>> rows;   ///< each row has header.size() cells
  /// Numbered notes under the table, for explanations too long for a cell: a cell refers to
  /// note i (from 1) as "note i".
  std::vector<Text> notes = {};
  /// The number of the first note: notes are numbered across the sheet (NoteBook).
  int first_note = 1;
  /// A line that stands for a long table (a sweep): the HTML folds the table under it, the
  /// Markdown prints it above the table. "" for a table shown as it is.
  std::string folded_under = {};
  /// Whether the HTML folds the notes under a line that counts them, for notes that explain
  /// rows in detail rather than answer the section's question.
  bool fold_notes = false;
  /// The sheet's summary of claims: the HTML keeps each verdict and its link on one line.
  bool is_summary = false;
};

struct Block {
  /// Callout: a paragraph set apart in a box (a blockquote), such as where the numbers come from.
  /// Fold: `children` under the line `text`, shown in the HTML when the reader opens it.
  enum class Kind { Heading, Markdown, Table, Lines, List, Code, Callout, Fold };
  Kind kind = Kind::Markdown;
  int level = 2;           ///< for headings
  std::string text;        ///< heading, authored Markdown (data in it goes through escape_inline), code, or a fold's line
  Table table;
  std::vector<Text> items; ///< Lines: one paragraph, a line each; List: bullet items
  std::vector<Block> children = {};
};

/// A picture the sheet links to, written next to it.
struct Figure {
  std::string file;       ///< name relative to the sheet, e.g. "lab4.warp-1.svg"
  std::string svg;
  std::string alt = {};   ///< the picture's text alternative, for the sheet's key picture
};

/// Calls `visit(block)` for every block, those inside folds too, in document order.
template <typename Blocks, typename Visit>
void for_each_block(Blocks& blocks, const Visit& visit) {
  for (auto& b : blocks) {
    visit(b);
    for_each_block(b.children, visit);
  }
}

struct Sheet {
  std::string title;
  std::vector<Block> blocks;
  std::vector<Figure> figures;
  /// A lab sheet's findings, typed (sheet_records.h); `lab` is "" on other pages.
  std::string lab;
  bool recorded = false;   ///< rendered from a recording, not measured on this machine
  std::optional<std::string> measured_at;
  std::vector<QuestionRecord> questions;
  std::vector<ClaimRecord> claims;
  /// The sheet's other numbers (pictures, sweeps, setup), machine-readable: the JSON writer
  /// puts them beside the findings (reports/labN.json).
  nlohmann::json data;

  void heading(int level, std::string text) { blocks.push_back({Block::Kind::Heading, level, std::move(text), {}, {}}); }
  /// A section the HTML folds until the reader opens it (background, setup, references): its
  /// heading starts with kFoldMark, which the Markdown keeps as a hint.
  void folded_heading(std::string text) { heading(2, std::string(kFoldMark) + " " + std::move(text)); }
  /// Authored Markdown (lab prose), written as it is: never put data such as names in it.
  void markdown(std::string text) { blocks.push_back({Block::Kind::Markdown, 0, std::move(text), {}, {}}); }
  void table(Table t) { blocks.push_back({Block::Kind::Table, 0, {}, std::move(t), {}}); }
  /// One paragraph of `lines`, each on its own line.
  void lines(std::vector<Text> lines) { blocks.push_back({Block::Kind::Lines, 0, {}, {}, std::move(lines)}); }
  /// Text shown as it is (a compiler's output, a program's), in a code block.
  void code(std::string text) { blocks.push_back({Block::Kind::Code, 0, std::move(text), {}, {}}); }
  /// A paragraph in a highlighted box.
  void callout(Text text) { blocks.push_back({Block::Kind::Callout, 0, {}, {}, {std::move(text)}}); }
  /// A bulleted list.
  void list(std::vector<Text> items) { blocks.push_back({Block::Kind::List, 0, {}, {}, std::move(items)}); }
  /// `inside` (blocks built on a sheet of their own) folded under the line `summary`.
  void fold(std::string summary, Sheet inside) {
    blocks.push_back({Block::Kind::Fold, 0, std::move(summary), {}, {}, std::move(inside.blocks)});
  }
  /// A picture (Markdown images) folded under a line naming it: only the lab's key picture
  /// stays open, so each question's table and answer keep the screen.
  void picture(const std::string& what, std::string images) {
    Sheet inside;
    inside.markdown(std::move(images));
    fold("Picture: " + what, std::move(inside));
  }
};

}  // namespace labbook::report
