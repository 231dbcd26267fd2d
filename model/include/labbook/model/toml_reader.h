#pragma once
/// @file
/// Reading TOML data files (lab data, exercises, rubrics) field by field, so that every
/// mistake is reported as "file:line: [table]: what is wrong".
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <toml++/toml.h>

#include "labbook/model/error.h"

namespace labbook {

/// Parses TOML text; a syntax error becomes labbook::Error "origin:line: ...".
inline toml::table parse_toml(const std::string& text, const std::string& origin) {
  try {
    return toml::parse(text, origin);
  } catch (const toml::parse_error& e) {
    throw Error(origin + ":" + std::to_string(e.source().begin.line) + ": " + std::string(e.description()));
  }
}

/// Reads fields of one TOML table; every error names origin:line, the table and the key.
class TomlReader {
 public:
  TomlReader(const toml::table& t, const std::string& origin, std::string where)
      : t_(t), origin_(origin), where_(std::move(where)) {}

  [[noreturn]] void fail(const toml::source_region& at, const std::string& why) const {
    throw Error(origin_ + ":" + std::to_string(at.begin.line) + ": " + where_ + ": " + why);
  }
  [[noreturn]] void fail(const std::string& key, const std::string& why) const {
    const toml::node* n = t_.get(key);
    fail(n ? n->source() : t_.source(), key.empty() ? why : "'" + key + "' " + why);
  }
  int line() const { return static_cast<int>(t_.source().begin.line); }
  const std::string& origin() const { return origin_; }

  std::string string(const std::string& key, bool required = true) const {
    const toml::node* n = t_.get(key);
    if (!n) {
      if (required) fail(t_.source(), "missing '" + key + "'");
      return {};
    }
    if (!n->is_string()) fail(key, "must be a string");
    return n->as_string()->get();
  }
  std::optional<double> number(const std::string& key, bool required = true) const {
    const toml::node* n = t_.get(key);
    if (!n) {
      if (required) fail(t_.source(), "missing '" + key + "'");
      return std::nullopt;
    }
    if (n->is_integer()) return static_cast<double>(n->as_integer()->get());
    if (!n->is_floating_point()) fail(key, "must be a number");
    return n->as_floating_point()->get();
  }
  bool boolean(const std::string& key, bool fallback) const {
    const toml::node* n = t_.get(key);
    if (!n) return fallback;
    if (!n->is_boolean()) fail(key, "must be true or false");
    return n->as_boolean()->get();
  }
  std::vector<std::string> strings(const std::string& key, bool required = true) const {
    const toml::node* n = t_.get(key);
    if (!n) {
      if (required) fail(t_.source(), "missing '" + key + "'");
      return {};
    }
    const toml::array* a = n->as_array();
    if (!a) fail(key, "must be an array of strings");
    std::vector<std::string> out;
    for (const auto& e : *a) {
      if (!e.is_string()) fail(e.source(), "'" + key + "' must hold only strings");
      out.push_back(e.as_string()->get());
    }
    return out;
  }
  /// An array of numbers, e.g. constants = [10.0, 20]; empty when absent.
  std::vector<double> numbers(const std::string& key) const {
    std::vector<double> out;
    const toml::node* n = t_.get(key);
    if (!n) return out;
    const toml::array* a = n->as_array();
    if (!a) fail(key, "must be an array of numbers");
    for (const auto& e : *a) out.push_back(number_in(e, key));
    return out;
  }
  /// An array of arrays of numbers, e.g. calls = [[1000, 777], [8192, 8192]]; empty when absent.
  std::vector<std::vector<double>> number_lists(const std::string& key) const {
    std::vector<std::vector<double>> out;
    const toml::node* n = t_.get(key);
    if (!n) return out;
    const toml::array* a = n->as_array();
    if (!a) fail(key, "must be an array of arrays of numbers");
    for (const auto& e : *a) {
      const toml::array* inner = e.as_array();
      if (!inner) fail(e.source(), "'" + key + "' must hold arrays of numbers");
      out.emplace_back();
      for (const auto& x : *inner) out.back().push_back(number_in(x, key));
    }
    return out;
  }
  const toml::table& table(const std::string& key) const {
    const toml::node* n = t_.get(key);
    if (!n || !n->is_table()) fail(t_.source(), "missing table [" + key + "]");
    return *n->as_table();
  }
  /// Each table of an array of tables [[key]].
  std::vector<const toml::table*> tables(const std::string& key) const {
    std::vector<const toml::table*> out;
    const toml::node* n = t_.get(key);
    if (!n) return out;
    const toml::array* a = n->as_array();
    if (!a) fail(key, "must be an array of tables [[" + key + "]]");
    for (const auto& e : *a) {
      if (!e.is_table()) fail(e.source(), "[[" + key + "]] entries must be tables");
      out.push_back(e.as_table());
    }
    return out;
  }
  /// An inline table of integers, e.g. params = { offset = 11, unroll = 4 }.
  std::map<std::string, long long> integers(const std::string& key) const {
    std::map<std::string, long long> out;
    const toml::node* n = t_.get(key);
    if (!n) return out;
    const toml::table* table = n->as_table();
    if (!table) fail(key, "must be a table of integers, e.g. { offset = 11 }");
    for (const auto& [name, value] : *table) {
      if (!value.is_integer()) fail(value.source(), "'" + key + "." + std::string(name.str()) + "' must be an integer");
      out[std::string(name.str())] = value.as_integer()->get();
    }
    return out;
  }
  /// Keys this table may hold: a misspelt key is an error, not a silent default.
  void only(const std::set<std::string>& known) const {
    for (const auto& [key, node] : t_)
      if (!known.count(std::string(key.str()))) fail(node.source(), "unknown key '" + std::string(key.str()) + "'");
  }

 private:
  double number_in(const toml::node& e, const std::string& key) const {
    if (e.is_integer()) return static_cast<double>(e.as_integer()->get());
    if (!e.is_floating_point()) fail(e.source(), "'" + key + "' must hold only numbers");
    return e.as_floating_point()->get();
  }

  const toml::table& t_;
  std::string origin_;
  std::string where_;
};

}  // namespace labbook
