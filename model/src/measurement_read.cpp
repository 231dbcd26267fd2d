// read_measurement: a measurement file's record tables read through simdjson, the rest through
// measurement_from_json. nlohmann built a value for every cell of 10^5 rows (half a second,
// more than the program of 10^5 launches took alone); simdjson parses the file in a tenth of
// that, and each row is read from it straight into its record. Anything the fast reader does
// not take (a bad field, records as lists of objects, a member given twice) is read again
// from the whole nlohmann document, whose reader names the file and the field.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>
#include <simdjson.h>

#include "labbook/model/atomic_file.h"
#include "labbook/model/error.h"
#include "labbook/model/json_reader.h"
#include "labbook/model/measurement_json.h"
#include "labbook/model/side_by_side.h"
#include "measurement_records.h"
#include "row_pieces.h"

namespace labbook {

namespace {

namespace dom = simdjson::dom;
using nlohmann::json;

/// What the fast reader does not take: the whole document is read instead.
struct NotFast {};

template <typename T>
T checked(simdjson::simdjson_result<T> result) {
  T value;
  if (std::move(result).get(value)) throw NotFast{};
  return value;
}

/// A simdjson value as nlohmann's parser would have made it (for what is not a table's rows:
/// the program, the devices, the strings, a table's columns).
json to_nlohmann(dom::element v) {
  switch (v.type()) {
    case dom::element_type::ARRAY: {
      json out = json::array();
      for (dom::element e : dom::array(v)) out.push_back(to_nlohmann(e));
      return out;
    }
    case dom::element_type::OBJECT: {
      json out = json::object();
      for (dom::key_value_pair member : dom::object(v)) out[std::string(member.key)] = to_nlohmann(member.value);
      return out;
    }
    case dom::element_type::INT64: {
      const std::int64_t i = v.get_int64().value_unsafe();
      return i < 0 ? json(i) : json(static_cast<std::uint64_t>(i));   // nlohmann's parser: unsigned
    }
    case dom::element_type::UINT64: return json(v.get_uint64().value_unsafe());
    case dom::element_type::DOUBLE: return json(v.get_double().value_unsafe());
    case dom::element_type::STRING: return json(std::string(v.get_string().value_unsafe()));
    case dom::element_type::BOOL: return json(v.get_bool().value_unsafe());
    case dom::element_type::NULL_VALUE: return json(nullptr);
  }
  throw NotFast{};
}

/// JsonReader's interface over simdjson: an object, or a table's row read by column name.
/// Takes what JsonReader takes, with the same values, and throws NotFast on anything else.
class FastReader {
 public:
  explicit FastReader(dom::object object) : object_(object) {}
  /// Row `row` of `table`; `cells` is the caller's, reused from row to row.
  FastReader(dom::array row, const JsonTable& table, std::vector<dom::element>& cells) : table_(&table), cells_(&cells) {
    cells.clear();
    for (dom::element cell : row) cells.push_back(cell);
    if (cells.size() != table.size()) throw NotFast{};
  }

  [[noreturn]] void fail(const std::string&, const std::string&) const { throw NotFast{}; }
  bool in_table() const { return table_ != nullptr; }
  bool has(const char* key) const {
    const dom::element* v = find(key);
    return v && !v->is_null();
  }

  std::string string(const char* key) const {
    const dom::element v = field(key);
    if (table_ && table_->strings && is_integer(v)) {   // an interned string
      const auto i = integer_of<std::uint64_t>(v);
      if (i >= table_->strings->size()) throw NotFast{};
      return (*table_->strings)[i];
    }
    return std::string(checked(v.get_string()));
  }
  bool boolean(const char* key) const { return checked(field(key).get_bool()); }
  double number(const char* key) const { return number_of(field(key)); }
  std::optional<double> optional_number(const char* key) const {
    if (!has(key)) return std::nullopt;
    return number(key);
  }
  template <typename T>
  T integer(const char* key) const {
    return integer_of<T>(field(key));
  }
  template <typename T>
  std::vector<T> integers(const char* key, std::size_t count) const {
    const dom::array list = checked(field(key).get_array());
    std::vector<T> out;
    for (dom::element e : list) out.push_back(integer_of<T>(e));
    if (out.size() != count) throw NotFast{};
    return out;
  }
  std::map<std::string, double> number_map(const char* key) const {
    std::map<std::string, double> out;
    for (dom::key_value_pair member : checked(field(key).get_object()))
      out[std::string(member.key)] = number_of(member.value);   // a name given twice: the last, as nlohmann
    return out;
  }
  template <typename F>
  void each(const char* key, F&& f) const {
    for (dom::element e : checked(field(key).get_array())) f(FastReader(checked(e.get_object())));
  }

 private:
  /// The member or cell `key`; in an object, a key given twice is not taken (nlohmann keeps
  /// the last, simdjson finds the first).
  const dom::element* find(const char* key) const {
    if (table_) {
      const auto at = table_->position(key);
      return at ? &(*cells_)[*at] : nullptr;
    }
    const dom::element* found = nullptr;
    for (dom::key_value_pair member : object_) {
      if (member.key != key) continue;
      if (found) throw NotFast{};
      found_ = member.value;
      found = &found_;
    }
    return found;
  }
  dom::element field(const char* key) const {
    const dom::element* v = find(key);
    if (!v) throw NotFast{};
    return *v;
  }
  static double number_of(dom::element v) {
    switch (v.type()) {
      case dom::element_type::DOUBLE: return v.get_double().value_unsafe();
      case dom::element_type::INT64: return static_cast<double>(v.get_int64().value_unsafe());
      case dom::element_type::UINT64: return static_cast<double>(v.get_uint64().value_unsafe());
      default: throw NotFast{};
    }
  }
  /// JsonReader's checked_integer: an integer (not 1.0) that fits T.
  template <typename T>
  static T integer_of(dom::element v) {
    if (v.type() == dom::element_type::UINT64) {   // above INT64_MAX
      const std::uint64_t u = v.get_uint64().value_unsafe();
      if (integer_fit<T>(u) != IntegerFit::Fits) throw NotFast{};
      return static_cast<T>(u);
    }
    if (v.type() != dom::element_type::INT64) throw NotFast{};
    const std::int64_t s = v.get_int64().value_unsafe();
    if (integer_fit<T>(s) != IntegerFit::Fits) throw NotFast{};
    return static_cast<T>(s);
  }
  static bool is_integer(dom::element v) {
    return v.type() == dom::element_type::INT64 || v.type() == dom::element_type::UINT64;
  }

  dom::object object_;
  mutable dom::element found_;
  const JsonTable* table_ = nullptr;
  std::vector<dom::element>* cells_ = nullptr;
};

/// Reads a table's rows (one array, or the pieces cut_rows made) onto the end of `records`, in
/// order; the rows of a large table are read in spans side by side (10^5 kernel rows were most
/// of reading a measurement, on one core). Returns how many rows were read.
template <typename Record, typename Read>
std::size_t read_rows(const std::vector<dom::array>& pieces, const JsonTable& table,
                      const records::RecordContext& context, Read read, std::vector<Record>& records) {
  constexpr std::size_t kRowsPerSpan = 4096;
  std::vector<dom::element> row_at;   // a dom::array is walked, not indexed
  for (dom::array rows : pieces)
    for (dom::element row : rows) row_at.push_back(row);
  const std::size_t count = row_at.size(), first = records.size();
  records.resize(first + count);   // each span fills its own records in place
  const auto read_span = [&](std::size_t begin, std::size_t end) {
    JsonTable own = table;   // position() remembers the column last found
    std::vector<dom::element> cells;
    for (std::size_t i = begin; i < end; ++i)
      records[first + i] = read(FastReader(checked(row_at[i].get_array()), own, cells), context);
  };
  const std::size_t spans = std::clamp<std::size_t>(count / kRowsPerSpan, 1, side_by_side_width());
  const std::size_t per_span = (count + spans - 1) / spans;
  side_by_side(spans, [&](std::size_t s) { read_span(s * per_span, std::min(count, (s + 1) * per_span)); });
  return count;
}

/// The fast path: the document without its tables' rows goes through measurement_from_json,
/// which checks everything but the rows; the rows are then read into their records.
Measurement read_fast(const std::string& path, std::size_t* rows_read) {
  dom::parser parser;   // of the whole text, or of what is left once the rows are cut out
  std::vector<dom::parser> piece_parsers;
  std::map<std::string, std::vector<dom::array>> cut_rows_of;   // by record list
  dom::object root;
  {
    // The documents keep copies of their strings: the text goes once parsed (14 MB at 10^5 launches).
    simdjson::padded_string text = checked(simdjson::padded_string::load(path));
    const std::size_t width = side_by_side_width();
    const std::optional<CutText> cut = width > 1 ? cut_rows(text.data(), text.size(), width) : std::nullopt;
    root = checked((cut ? parser.parse(cut->rest) : parser.parse(text)).get_object());
    if (cut) {
      std::vector<std::pair<const std::string*, std::string_view>> pieces;
      for (const RowPieces& table : cut->tables)
        for (std::string_view piece : table.pieces) pieces.emplace_back(&table.key, piece);
      piece_parsers = std::vector<dom::parser>(pieces.size());
      std::vector<dom::array> arrays(pieces.size());
      // Each piece lies in the padded text, which may be read past its end.
      side_by_side(pieces.size(), [&](std::size_t i) {
        const std::string_view piece = pieces[i].second;
        arrays[i] = checked(piece_parsers[i].parse(piece.data(), piece.size(), false).get_array());
      });
      for (std::size_t i = 0; i < pieces.size(); ++i) cut_rows_of[*pieces[i].first].push_back(arrays[i]);
    }
  }
  json rest = json::object();
  std::map<std::string, std::vector<dom::array>> rows;   // by record list
  std::set<std::string_view> seen;
  for (dom::key_value_pair member : root) {
    if (!seen.insert(member.key).second) throw NotFast{};   // the whole document keeps the last
    const std::string key(member.key);
    if (!records::is_record_list(key)) {
      rest[key] = to_nlohmann(member.value);
      continue;
    }
    // A table; a list of objects (versions 1 to 4 wrote them, of few records) is not taken
    // here, and the whole document is read instead.
    json table = json::object();
    for (dom::key_value_pair part : checked(member.value.get_object())) {
      if (part.key != "rows") {
        table[std::string(part.key)] = to_nlohmann(part.value);
      } else if (!rows.emplace(key, std::vector<dom::array>{checked(part.value.get_array())}).second) {
        throw NotFast{};
      } else {
        table["rows"] = json::array();
      }
    }
    rest[key] = std::move(table);
  }
  for (auto& [key, arrays] : cut_rows_of) {   // in place of the [] left where they were cut
    const auto cut = rows.find(key);
    if (cut == rows.end()) throw NotFast{};
    cut->second = std::move(arrays);
  }
  Measurement m = measurement_from_json(rest, path);
  if (rows.empty()) return m;
  // measurement_from_json has checked these where there are tables.
  const records::RecordContext context{rest["schema_version"].get<int>(), rest["time_origin_ns"].get<std::uint64_t>()};
  const auto strings = rest["strings"].get<std::vector<std::string>>();
  for (const char* key : records::kRecordLists) {
    const auto list = rows.find(key);
    if (list == rows.end()) continue;
    JsonTable table;
    table.strings = &strings;
    for (const json& name : rest[key]["columns"]) table.add_column(name.get<std::string>());
    records::with_record_list<FastReader>(key, m, [&](auto& records, auto read) {
      *rows_read += read_rows(list->second, table, context, read, records);
    });
  }
  return m;
}

}  // namespace

Measurement read_measurement(const std::string& path, std::size_t* rows_read_fast) {
  std::size_t rows = 0;
  try {
    Measurement m = read_fast(path, &rows);
    if (rows_read_fast) *rows_read_fast = rows;
    return m;
  } catch (const NotFast&) {
  } catch (const Error&) {
  } catch (const json::exception&) {
  }
  if (rows_read_fast) *rows_read_fast = 0;
  const std::string text = read_file(path);   // names the problem where the file cannot be read
  json j;
  try {
    j = json::parse(text);
  } catch (const json::parse_error& e) {
    throw Error(path + ": not valid JSON: " + e.what());
  }
  return measurement_from_json(j, path);
}

}  // namespace labbook
