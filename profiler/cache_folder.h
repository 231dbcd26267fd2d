#pragma once
/// @file
/// Where labbook keeps what it worked out in one invocation for the next ones.
#include <string>
#include <string_view>

namespace labbook::profiler {

/// $XDG_CACHE_HOME (or ~/.cache), then labbook/`kind`; not made here. "" when there is no
/// home to cache in.
std::string cache_folder(const std::string& kind);

/// 16 hex digits that stand for `key` in a cached file's name (FNV-1a: stable from build to
/// build, unlike std::hash).
std::string name_hash(std::string_view key);

}  // namespace labbook::profiler
