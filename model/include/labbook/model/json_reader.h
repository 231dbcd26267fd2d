#pragma once
// Walks a JSON document and throws labbook::Error naming the file and the JSON pointer of
// the first field that is missing or of the wrong type. Used by every JSON reader. A list of
// records may also be a table ({"columns": [...], "rows": [[...], ...]}, each_record): a row
// reads as the object its columns name, its string cells index a list of strings.
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include <nlohmann/json.hpp>

#include "labbook/model/error.h"

namespace labbook {

/// Whether an integer read from JSON fits T: the one rule of JsonReader and of the fast reader
/// of measurement files (measurement_read.cpp).
enum class IntegerFit { Fits, Negative, OutOfRange };
template <typename T>
IntegerFit integer_fit(std::uint64_t u) {
  static_assert(std::is_integral_v<T>);
  return u > static_cast<std::uint64_t>(std::numeric_limits<T>::max()) ? IntegerFit::OutOfRange : IntegerFit::Fits;
}
template <typename T>
IntegerFit integer_fit(std::int64_t s) {
  static_assert(std::is_integral_v<T>);
  if constexpr (std::is_unsigned_v<T>) {
    if (s < 0) return IntegerFit::Negative;
    return static_cast<std::uint64_t>(s) > std::numeric_limits<T>::max() ? IntegerFit::OutOfRange : IntegerFit::Fits;
  } else {
    return s < std::numeric_limits<T>::min() || s > std::numeric_limits<T>::max() ? IntegerFit::OutOfRange
                                                                                    : IntegerFit::Fits;
  }
}

/// A table's columns (name -> position in a row) and the strings its string cells index.
class JsonTable {
 public:
  /// Adds column `name` after the others; false where the table has it already.
  bool add_column(const std::string& name) {
    if (!by_name_.emplace(name, names_.size()).second) return false;
    names_.push_back(name);
    return true;
  }
  void clear() {
    by_name_.clear();
    names_.clear();
    next_ = 0;
  }
  std::size_t size() const { return names_.size(); }
  /// Where column `name` is in a row, if the table has it. Readers ask for a row's fields in
  /// about the order of its columns, so the one after the last found is tried first: the
  /// names compared on every field were a fifth of reading 10^5 rows. Remembers the last
  /// found, so a table is not read by two threads at once: each takes a copy.
  std::optional<std::size_t> position(const char* name) const {
    if (next_ < names_.size() && std::strcmp(names_[next_].c_str(), name) == 0) return next_++;
    // The one just found, asked for again: an optional field is asked whether it is there, then read.
    if (next_ > 0 && std::strcmp(names_[next_ - 1].c_str(), name) == 0) return next_ - 1;
    const auto it = by_name_.find(name);
    if (it == by_name_.end()) return std::nullopt;
    next_ = it->second + 1;
    return it->second;
  }

  const std::vector<std::string>* strings = nullptr;

 private:
  std::map<std::string, std::size_t, std::less<>> by_name_;   // found by const char* without a copy
  std::vector<std::string> names_;                            // by position
  mutable std::size_t next_ = 0;
};

class JsonReader {
 public:
  JsonReader(const nlohmann::json& j, std::string origin, std::string pointer = "")
      : j_(j), origin_(std::move(origin)), pointer_(std::move(pointer)) {
    if (!j_.is_object()) fail_here("expected an object");
  }
  /// One row of `table`, read by column name as an object is by key. `pointer` is the row's.
  JsonReader(const nlohmann::json& row, const JsonTable& table, std::string origin, std::string pointer)
      : j_(row), origin_(std::move(origin)), pointer_(std::move(pointer)), table_(&table) {
    if (!j_.is_array() || j_.size() != table.size())
      fail_here("expected a row of " + std::to_string(table.size()) + " cells");
  }

  /// Throws naming `key`'s JSON pointer; in a table's row, the cell's, with its column's name
  /// ("/kernels/rows/3/8 (grid)").
  [[noreturn]] void fail(const std::string& key, const std::string& why) const {
    const std::string column = key.substr(0, key.find('/'));   // number_map names "metrics/x"
    const bool cell = table_ && table_->position(column.c_str());
    throw Error(origin_ + ": " + path_of(key) + (cell ? " (" + column + ")" : "") + ": " + why);
  }

  std::string string(const char* key) const {
    const auto& v = field(key);
    if (table_ && table_->strings && v.is_number_integer()) {   // an interned string
      const auto i = checked_integer<std::uint64_t>(v, key);
      if (i >= table_->strings->size()) fail(key, "no string " + std::to_string(i) + " in the list of strings");
      return (*table_->strings)[i];
    }
    if (!v.is_string()) fail(key, "expected a string");
    return v.get<std::string>();
  }
  bool boolean(const char* key) const {
    const auto& v = field(key);
    if (!v.is_boolean()) fail(key, "expected true or false");
    return v.get<bool>();
  }
  double number(const char* key) const {
    const auto& v = field(key);
    if (!v.is_number()) fail(key, "expected a number");
    return v.get<double>();
  }
  std::optional<double> optional_number(const char* key) const {
    if (!has(key)) return std::nullopt;
    return number(key);
  }
  template <typename T>
  T integer(const char* key) const {
    return checked_integer<T>(field(key), key);
  }
  template <typename T>
  std::optional<T> optional_integer(const char* key) const {
    if (!has(key)) return std::nullopt;
    return checked_integer<T>(field(key), key);
  }
  template <typename T>
  std::vector<T> integers(const char* key, std::size_t count) const {
    const auto& v = field(key);
    if (!v.is_array() || v.size() != count)
      fail(key, "expected an array of " + std::to_string(count) + " integers");
    std::vector<T> out;
    for (const auto& e : v) out.push_back(checked_integer<T>(e, key));
    return out;
  }
  std::vector<std::string> strings(const char* key) const {
    const auto& v = field(key);
    if (!v.is_array()) fail(key, "expected an array of strings");
    std::vector<std::string> out;
    for (const auto& e : v) {
      if (!e.is_string()) fail(key, "expected an array of strings");
      out.push_back(e.get<std::string>());
    }
    return out;
  }
  std::map<std::string, double> number_map(const char* key) const {
    const auto& v = field(key);
    if (!v.is_object()) fail(key, "expected an object of numbers");
    std::map<std::string, double> out;
    for (const auto& [name, value] : v.items()) {
      if (!value.is_number()) fail(std::string(key) + "/" + name, "expected a number");
      out[name] = value.get<double>();
    }
    return out;
  }
  JsonReader object(const char* key) const { return JsonReader(field(key), origin_, path_of(key)); }
  /// Whether this is a table's row (each_record).
  bool in_table() const { return table_ != nullptr; }
  /// Whether the object has `key` (for a field that may be left out; null counts as absent).
  bool has(const char* key) const {
    const nlohmann::json* v = find(key);
    return v && !v->is_null();
  }

  /// Calls `f` with a reader for each element of the array `key`.
  void each(const char* key, const std::function<void(const JsonReader&)>& f) const {
    const auto& v = field(key);
    if (!v.is_array()) fail(key, "expected an array");
    for (std::size_t i = 0; i < v.size(); ++i)
      f(JsonReader(v[i], origin_, path_of(key) + "/" + std::to_string(i)));
  }

  /// Like each(), where `key` may also be a table: {"columns": [names], "rows": [[cells]]},
  /// whose string cells index `strings`.
  void each_record(const char* key, const std::vector<std::string>& strings,
                   const std::function<void(const JsonReader&)>& f) const {
    const auto& v = field(key);
    if (v.is_array()) return each(key, f);
    if (!v.is_object()) fail(key, "expected an array or a table");
    const JsonReader table_reader = object(key);
    JsonTable table;
    table.strings = &strings;
    const std::vector<std::string> names = table_reader.strings("columns");
    for (const auto& name : names)
      if (!table.add_column(name)) table_reader.fail("columns", "\"" + name + "\" twice");
    const auto& rows = table_reader.field("rows");
    if (!rows.is_array()) table_reader.fail("rows", "expected an array of rows");
    const std::string pointer = path_of(key) + "/rows/";
    for (std::size_t i = 0; i < rows.size(); ++i) f(JsonReader(rows[i], table, origin_, pointer + std::to_string(i)));
  }

 private:
  /// The JSON pointer of `key` ("metrics/x" too): in a table's row, its column's position.
  std::string path_of(const std::string& key) const {
    const std::string column = key.substr(0, key.find('/'));
    if (table_)
      if (const auto at = table_->position(column.c_str())) return pointer_ + "/" + std::to_string(*at) + key.substr(column.size());
    return pointer_ + "/" + key;
  }
  const nlohmann::json* find(const char* key) const {
    if (!table_) {
      const auto it = j_.find(key);
      return it == j_.end() ? nullptr : &*it;
    }
    const auto at = table_->position(key);
    return at ? &j_[*at] : nullptr;
  }
  const nlohmann::json& field(const char* key) const {
    const nlohmann::json* v = find(key);
    if (!v) fail(key, "missing");
    return *v;
  }
  [[noreturn]] void fail_here(const std::string& why) const {
    throw Error(origin_ + ": " + (pointer_.empty() ? "/" : pointer_) + ": " + why);
  }
  template <typename T>
  T checked_integer(const nlohmann::json& v, const char* key) const {
    if (!v.is_number_integer()) fail(key, "expected an integer");
    const bool stored_unsigned = v.is_number_unsigned();   // its parser keeps 0 and above so
    const IntegerFit fit = stored_unsigned ? integer_fit<T>(v.get<std::uint64_t>()) : integer_fit<T>(v.get<std::int64_t>());
    if (fit == IntegerFit::Negative) fail(key, "expected a non-negative integer");
    if (fit == IntegerFit::OutOfRange) fail(key, "out of range");
    return stored_unsigned ? static_cast<T>(v.get<std::uint64_t>()) : static_cast<T>(v.get<std::int64_t>());
  }

  const nlohmann::json& j_;
  std::string origin_;
  std::string pointer_;
  const JsonTable* table_ = nullptr;   // set for a table's row
};

}  // namespace labbook
