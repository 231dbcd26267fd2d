#pragma once
/// @file
/// Which kernel launches get metrics: NVTX range globs, kernel-name globs and a
/// skip/count window, like `ncu --nvtx-include`, `--kernel-name` and `--launch-skip/-count`.
/// Knows nothing about CUPTI, so unit tests drive it directly.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace labbook::profiler {

struct LaunchFilterSpec {
  /// Globs (fnmatch, '*' also crosses '/') on the NVTX range path. A launch matches when its
  /// path or any enclosing path matches, so "transpose" selects "transpose/naive" too. A
  /// launch outside any range is matched by its kernel's short name.
  std::vector<std::string> nvtx;
  /// Globs on the kernel's short name ("ns::transposeNaive"), that name without its
  /// namespaces ("transposeNaive", as ncu --kernel-name matches) or full demangled name.
  std::vector<std::string> kernels;
  std::uint64_t skip = 0;                ///< matching launches to pass over first
  std::optional<std::uint64_t> count;    ///< matching launches to profile after the skip

  /// One line for the sheet and the summary, e.g. "nvtx 'transpose/*', launches 2 to 11".
  std::string describe() const;
};

/// What is wrong with glob `pattern` ("" when nothing is): an empty pattern, or a '['
/// that no ']' closes (fnmatch would silently match nothing).
std::string glob_problem(const std::string& pattern);

/// A glob that matches `text`: its '*', '?', '[' and '\\' escaped, and each ',' (which
/// separates globs in the collector's environment) matched by any one character.
std::string glob_literal(const std::string& text);

/// Decides launch by launch, in launch order. Not thread-safe: the caller serializes.
class LaunchFilter {
 public:
  explicit LaunchFilter(LaunchFilterSpec spec) : spec_(std::move(spec)) {}

  /// `range_path`: NVTX path open on the launching thread ("" for none);
  /// `kernel_name`: demangled name.
  bool select(const std::string& range_path, const std::string& kernel_name);

  /// True once `count` launches were selected: nothing later can match.
  bool exhausted() const { return spec_.count && selected_ >= *spec_.count; }

 private:
  bool matches(const std::string& range_path, const std::string& kernel_name) const;

  LaunchFilterSpec spec_;
  std::uint64_t matched_ = 0;
  std::uint64_t selected_ = 0;
};

}  // namespace labbook::profiler
