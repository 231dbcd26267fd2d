#include "cache_folder.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace labbook::profiler {

std::string cache_folder(const std::string& kind) {
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  const char* home = std::getenv("HOME");
  if ((!xdg || !*xdg) && (!home || !*home)) return "";
  return (xdg && *xdg ? std::string(xdg) : std::string(home) + "/.cache") + "/labbook/" + kind;
}

std::string name_hash(std::string_view key) {
  std::uint64_t hash = 14695981039346656037ull;   // FNV-1a's offset basis
  for (char c : key) hash = (hash ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(hash));
  return text;
}

}  // namespace labbook::profiler
