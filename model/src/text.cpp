#include "labbook/model/text.h"

#include <algorithm>

#include <cxxabi.h>

#include <cctype>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <sstream>
#include <unordered_map>

namespace labbook {

std::string join(const std::vector<std::string>& items, const std::string& separator) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) out += (i ? separator : "") + items[i];
  return out;
}

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> out;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, separator))
    if (!item.empty()) out.push_back(item);
  return out;
}

namespace {

/// The C++ symbol inside a name nvcc gives a function of internal linkage under -rdc
/// ("__nv_static_35__<35 characters of the file's hash>_Z..."): the symbol, or `name` itself.
std::string without_nv_static_prefix(const std::string& name) {
  static const std::string prefix = "__nv_static_";
  if (name.compare(0, prefix.size(), prefix) != 0) return name;
  std::size_t at = prefix.size(), length = 0;
  while (at < name.size() && std::isdigit(static_cast<unsigned char>(name[at]))) length = length * 10 + (name[at++] - '0');
  at += 2 + length;   // "__" and the hash
  return at < name.size() && name.compare(at, 2, "_Z") == 0 ? name.substr(at) : name;
}

}  // namespace

std::string demangled(const std::string& name) {
  // The collector asks for the same few kernel names at every launch and every activity
  // record, from the program's threads and CUPTI's: remembered, so that a program of 10^5
  // launches demangles each name once. A program with more names than this just demangles.
  // Never destroyed: the collector demangles at exit, after static destructors may have run.
  // Only tried, never waited for: the collector's fatal-signal handler may demangle while the
  // thread it interrupted holds the lock; it then demangles without the memo.
  constexpr std::size_t kMostRemembered = 4096;
  static auto& mutex = *new std::mutex;
  static auto& remembered = *new std::unordered_map<std::string, std::string>;
  if (std::unique_lock<std::mutex> lock(mutex, std::try_to_lock); lock.owns_lock())
    if (const auto it = remembered.find(name); it != remembered.end()) return it->second;
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> text(
      abi::__cxa_demangle(without_nv_static_prefix(name).c_str(), nullptr, nullptr, &status), std::free);
  std::string out = status == 0 && text ? text.get() : name;
  if (std::unique_lock<std::mutex> lock(mutex, std::try_to_lock); lock.owns_lock() && remembered.size() < kMostRemembered)
    remembered.emplace(name, out);
  return out;
}

std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diag = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

std::vector<std::string> closest_names(const std::string& name, const std::vector<std::string>& candidates,
                                       std::size_t count) {
  std::vector<std::pair<std::size_t, std::string>> scored;
  for (const auto& c : candidates) scored.emplace_back(edit_distance(name, c), c);
  std::stable_sort(scored.begin(), scored.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::string> out;
  for (std::size_t i = 0; i < scored.size() && i < count; ++i) out.push_back(scored[i].second);
  return out;
}

}  // namespace labbook
