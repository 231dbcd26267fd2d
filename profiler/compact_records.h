#pragma once
/// @file
/// What a trace run keeps of each kernel and runtime API call while the program runs, until
/// the measurement is built at its end: a few dozen bytes each, names interned. At 10^5
/// launches the data model's kernels (280 bytes and two names each) and API calls (a name
/// each), held from CUPTI's record to the end, were most of the collector's 100 MB above the
/// program; a kernel's names are now copied only as its row is written (JoinedKernels). No
/// CUPTI.
#include <algorithm>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "labbook/model/measurement.h"

namespace labbook::profiler {

struct KernelRecord {
  const std::string* mangled = nullptr;   ///< interned (InternedNames)
  std::uint64_t start_ns = 0, end_ns = 0;
  std::uint32_t correlation = 0, stream = 0;
  std::int32_t device = 0;
  std::int32_t grid[3] = {0, 0, 0}, block[3] = {0, 0, 0};
  std::int32_t registers_per_thread = 0, static_shared_bytes = 0, dynamic_shared_bytes = 0, local_bytes_per_thread = 0;
};

struct ApiCallRecord {
  std::uint32_t cbid = 0;   ///< CUPTI's runtime API callback id, which names the call at the end
  std::uint32_t thread = 0, correlation = 0;
  std::uint64_t start_ns = 0, end_ns = 0;
};

/// The earliest start or end among `records` (kernels' or API calls'), none without one: where
/// the measurement's times count from.
template <typename Record>
std::optional<std::uint64_t> earliest_record_time_ns(const std::vector<Record>& records) {
  std::optional<std::uint64_t> earliest;
  for (const Record& r : records) earliest = earlier_ns(earliest, std::min(r.start_ns, r.end_ns));
  return earliest;
}

/// Each name kept once; a pointer stays valid while the table lives. Safe from any thread.
class InternedNames {
 public:
  const std::string* intern(const std::string& name);

 private:
  std::mutex mutex_;
  std::unordered_set<std::string> names_;   // node-based: pointers stay valid
};

/// The data model's kernel for `record`, `demangled` its name (launch, range and the rest of
/// what the launch callbacks saw are the caller's to fill in), made into `into`: a fresh
/// kernel's fields, but its strings keep their room, so that kernels made in turn into one
/// allocate nothing.
void make_kernel(const KernelRecord& record, const std::string& demangled, Kernel& into);

}  // namespace labbook::profiler
