#pragma once
// A measurement's text with its tables' rows cut out in pieces of whole rows, for parsing side
// by side: simdjson parses a document on one core, and 10^5 launches' rows were most of reading
// their measurement. Private to the model.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace labbook {

/// One table's rows, in order, each piece a JSON array of whole rows.
struct RowPieces {
  std::string key;   ///< the top-level member that holds the table (one of records::kRecordLists)
  std::vector<std::string_view> pieces;
};

struct CutText {
  std::string rest;   ///< the text without those rows: each such table's "rows" is []
  std::vector<RowPieces> tables;
};

/// Cuts `text` where its tables' rows are laid out as labbook writes them (a row to a line after
/// `"rows": [`), into about `pieces` pieces in all. The cut is checked on `rest`: each lies in the
/// "rows" of a top-level table, named once. Each piece is made an array in place: a bracket is
/// written over the comma or line end around it, so `text` is changed, and the pieces point
/// into it. nullopt, with `text` unchanged, where less than two pieces would be cut or a cut
/// is not sure.
std::optional<CutText> cut_rows(char* text, std::size_t size, std::size_t pieces);

}  // namespace labbook
