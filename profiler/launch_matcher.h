#pragma once
/// @file
/// LaunchMatcher: which launch an activity record of a kernel belongs to. A launch is known by
/// the correlation ids of its call (the runtime's, where the program called the runtime, and
/// the driver's); one call may launch several kernels (a graph's nodes). A kernel record claims
/// the first launch of its call not yet claimed that has its name, else the first not yet
/// claimed: records come in the order the GPU started the kernels. One sorted list, not a map
/// of lists: a trace run keeps every launch (10^5 and more). No CUPTI.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "compact_records.h"

namespace labbook::profiler {

/// The positions of `kernels` in the order the GPU started them, records that started at the
/// same time in the order CUPTI gave them: the order in which they claim their launches.
/// Positions rather than a sorted copy: a stable sort takes a buffer of half of what it sorts.
std::vector<std::size_t> start_order(const std::vector<KernelRecord>& kernels);

class LaunchMatcher {
 public:
  /// Room for `entries` calls of add().
  void reserve(std::size_t entries);
  /// Launch `index` (counted from 0, each added once per correlation id) of kernel `mangled`,
  /// which must outlive the matcher, made by the call with `correlation`.
  void add(std::uint32_t correlation, std::uint64_t index, const std::string* mangled);
  /// Call once all launches are added, before claim().
  void seal();
  /// The launch a kernel record of `mangled` with `correlation` belongs to, now claimed; none
  /// when its call launched nothing unclaimed.
  std::optional<std::uint64_t> claim(std::uint32_t correlation, const std::string& mangled);

 private:
  struct Entry {
    std::uint32_t correlation;
    std::uint64_t index;
    const std::string* mangled;
  };
  /// The first entry of `correlation`, or where it would be.
  std::vector<Entry>::const_iterator first_of(std::uint32_t correlation);

  std::vector<Entry> entries_;   // by correlation, then index, after seal()
  std::vector<bool> claimed_;    // by launch index
  std::size_t last_ = 0;         // where first_of() found the last
};

}  // namespace labbook::profiler
