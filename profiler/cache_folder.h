#pragma once
/// @file
/// Where labbook keeps what it worked out in one invocation for the next ones.
#include <string>

namespace labbook::profiler {

/// $XDG_CACHE_HOME (or ~/.cache), then labbook/`kind`; not made here. "" when there is no
/// home to cache in.
std::string cache_folder(const std::string& kind);

}  // namespace labbook::profiler
