#include "cache_folder.h"

#include <cstdlib>

namespace labbook::profiler {

std::string cache_folder(const std::string& kind) {
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  const char* home = std::getenv("HOME");
  if ((!xdg || !*xdg) && (!home || !*home)) return "";
  return (xdg && *xdg ? std::string(xdg) : std::string(home) + "/.cache") + "/labbook/" + kind;
}

}  // namespace labbook::profiler
