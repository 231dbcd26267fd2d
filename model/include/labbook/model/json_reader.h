#pragma once
// Walks a JSON document and throws labbook::Error naming the file and the JSON pointer of
// the first field that is missing or of the wrong type. Used by every JSON reader.
#include <cstdint>
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

class JsonReader {
 public:
  JsonReader(const nlohmann::json& j, std::string origin, std::string pointer = "")
      : j_(j), origin_(std::move(origin)), pointer_(std::move(pointer)) {
    if (!j_.is_object()) fail_here("expected an object");
  }

  [[noreturn]] void fail(const std::string& key, const std::string& why) const {
    throw Error(origin_ + ": " + pointer_ + "/" + key + ": " + why);
  }

  std::string string(const char* key) const {
    const auto& v = field(key);
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
    if (!j_.contains(key) || j_[key].is_null()) return std::nullopt;
    return number(key);
  }
  template <typename T>
  T integer(const char* key) const {
    return checked_integer<T>(field(key), key);
  }
  template <typename T>
  std::optional<T> optional_integer(const char* key) const {
    if (!j_.contains(key) || j_[key].is_null()) return std::nullopt;
    return checked_integer<T>(j_[key], key);
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
  JsonReader object(const char* key) const {
    return JsonReader(field(key), origin_, pointer_ + "/" + key);
  }
  /// Whether the object has `key` (for a field that may be left out).
  bool has(const char* key) const { return j_.contains(key); }

  /// Calls `f` with a reader for each element of the array `key`.
  void each(const char* key, const std::function<void(const JsonReader&)>& f) const {
    const auto& v = field(key);
    if (!v.is_array()) fail(key, "expected an array");
    for (std::size_t i = 0; i < v.size(); ++i)
      f(JsonReader(v[i], origin_, pointer_ + "/" + key + "/" + std::to_string(i)));
  }

 private:
  const nlohmann::json& field(const char* key) const {
    if (!j_.contains(key)) fail(key, "missing");
    return j_[key];
  }
  [[noreturn]] void fail_here(const std::string& why) const {
    throw Error(origin_ + ": " + (pointer_.empty() ? "/" : pointer_) + ": " + why);
  }
  template <typename T>
  T checked_integer(const nlohmann::json& v, const char* key) const {
    static_assert(std::is_integral_v<T>);
    if (!v.is_number_integer()) fail(key, "expected an integer");
    if constexpr (std::is_unsigned_v<T>) {
      if (v.is_number_unsigned()) {
        const auto u = v.get<std::uint64_t>();
        if (u > std::numeric_limits<T>::max()) fail(key, "out of range");
        return static_cast<T>(u);
      }
      const auto s = v.get<std::int64_t>();
      if (s < 0) fail(key, "expected a non-negative integer");
      if (static_cast<std::uint64_t>(s) > std::numeric_limits<T>::max()) fail(key, "out of range");
      return static_cast<T>(s);
    } else {
      if (v.is_number_unsigned() &&
          v.get<std::uint64_t>() > static_cast<std::uint64_t>(std::numeric_limits<T>::max()))
        fail(key, "out of range");
      const auto s = v.get<std::int64_t>();
      if (s < std::numeric_limits<T>::min() || s > std::numeric_limits<T>::max())
        fail(key, "out of range");
      return static_cast<T>(s);
    }
  }

  const nlohmann::json& j_;
  std::string origin_;
  std::string pointer_;
};

}  // namespace labbook
