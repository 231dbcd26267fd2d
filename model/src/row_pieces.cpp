#include "row_pieces.h"

#include <string.h>   // memmem

#include <algorithm>
#include <set>

#include "measurement_records.h"
#include "measurement_tables.h"

namespace labbook {

namespace {

// A table's rows as the table writer lays them out (table_layout): JSON strings hold no line
// ends, so these are found only outside strings.
const std::string kOpen = std::string(table_layout::kRows) + std::string(table_layout::kFirstRow);
constexpr std::string_view kBetween = table_layout::kNextRow;
constexpr std::string_view kEnd = table_layout::kEnd;
/// Smaller pieces would cost more in threads than they save.
constexpr std::size_t kLeastPieceBytes = std::size_t{256} << 10;

std::size_t find_in(std::string_view text, std::string_view what, std::size_t from) {
  if (from >= text.size()) return std::string_view::npos;
  const void* at = ::memmem(text.data() + from, text.size() - from, what.data(), what.size());
  return at ? static_cast<std::size_t>(static_cast<const char*>(at) - text.data()) : std::string_view::npos;
}

/// The top-level keys of the tables whose "rows" array holds each offset of `cuts` (ascending)
/// directly, in order; empty where one is not so held, or a key is not a record list or is cut
/// twice. A scan of strings and brackets, enough for `rest`, which simdjson checks afterwards.
std::vector<std::string> tables_holding(std::string_view rest, const std::vector<std::size_t>& cuts) {
  struct Open {
    bool object;
    std::string_view key;   // an object's: the member being read
  };
  std::vector<Open> open;
  std::vector<std::string> keys;
  std::set<std::string_view> seen;
  std::string_view last_string;
  std::size_t next = 0;
  for (std::size_t i = 0; i < rest.size() && next < cuts.size(); ++i) {
    if (cuts[next] < i) return {};   // inside a string
    if (cuts[next] == i) {
      const bool in_rows = open.size() == 3 && open[0].object && open[1].object && !open[2].object &&
                           open[1].key == "rows" && records::is_record_list(open[0].key);
      if (!in_rows || !seen.insert(open[0].key).second) return {};
      keys.emplace_back(open[0].key);
      ++next;
    }
    switch (rest[i]) {
      case '"': {
        const std::size_t start = ++i;
        while (i < rest.size() && rest[i] != '"') i += rest[i] == '\\' ? 2 : 1;
        last_string = rest.substr(start, std::min(i, rest.size()) - start);
        break;
      }
      case ':':
        if (!open.empty() && open.back().object) open.back().key = last_string;
        break;
      case '{':
      case '[': open.push_back({rest[i] == '{', {}}); break;
      case '}':
      case ']':
        if (open.empty()) return {};
        open.pop_back();
        break;
      default: break;
    }
  }
  return next == cuts.size() ? keys : std::vector<std::string>{};
}

/// Where the rows in [begin, end) are cut into `count` pieces: the commas between their rows.
std::vector<std::size_t> commas_between(std::string_view text, std::size_t begin, std::size_t end, std::size_t count) {
  std::vector<std::size_t> commas;
  for (std::size_t k = 1; k < count; ++k) {
    const std::size_t from = std::max(begin + (end - begin) * k / count, commas.empty() ? begin : commas.back() + 1);
    const std::size_t at = find_in(text.substr(0, end), kBetween, from);
    if (at == std::string_view::npos) break;
    commas.push_back(at);
  }
  return commas;
}

}  // namespace

std::optional<CutText> cut_rows(char* data, std::size_t size, std::size_t pieces) {
  const std::string_view text(data, size);
  struct Rows {
    std::size_t begin, end;   // from the first row's line to the line end before ]}
  };
  std::vector<Rows> found;
  std::size_t all_rows = 0;
  for (std::size_t at = find_in(text, kOpen, 0); at != std::string_view::npos;) {
    const std::size_t begin = at + table_layout::kRows.size() + 1;   // past kFirstRow's line end
    const std::size_t end = find_in(text, kEnd, begin);
    if (end == std::string_view::npos) return std::nullopt;
    found.push_back({begin, end});
    all_rows += end - begin;
    at = find_in(text, kOpen, end);
  }
  const std::size_t piece_bytes = std::max(kLeastPieceBytes, all_rows / std::max<std::size_t>(pieces, 1));
  const auto pieces_of = [piece_bytes](const Rows& rows) {
    return std::max<std::size_t>(1, (rows.end - rows.begin) / piece_bytes);
  };
  std::size_t count = 0;
  for (const Rows& rows : found) count += pieces_of(rows);
  if (all_rows < 2 * kLeastPieceBytes || count < 2) return std::nullopt;
  CutText cut;
  std::vector<std::size_t> cuts;   // in `rest`, where each table's rows were
  std::size_t copied = 0;
  for (const Rows& rows : found) {
    cut.rest.append(text, copied, rows.begin - copied);
    cuts.push_back(cut.rest.size());
    copied = rows.end;
  }
  cut.rest.append(text, copied);
  const std::vector<std::string> keys = tables_holding(cut.rest, cuts);
  if (keys.size() != found.size()) return std::nullopt;
  // Each piece becomes an array where it lies: "[" over the line end before its first row, "]"
  // over the comma (or line end) after its last.
  for (std::size_t t = 0; t < found.size(); ++t) {
    const Rows& rows = found[t];
    const std::vector<std::size_t> commas = commas_between(text, rows.begin, rows.end, pieces_of(rows));
    RowPieces table{keys[t], {}};
    std::size_t open = rows.begin - 1;
    for (std::size_t c = 0; c <= commas.size(); ++c) {
      const std::size_t close = c < commas.size() ? commas[c] : rows.end;
      data[open] = '[';
      data[close] = ']';
      table.pieces.push_back(text.substr(open, close + 1 - open));
      open = close + 1;
    }
    cut.tables.push_back(std::move(table));
  }
  return cut;
}

}  // namespace labbook
