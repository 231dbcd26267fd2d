#include "launch_join.h"

#include <algorithm>
#include <optional>

#include "labbook/model/text.h"
#include "launch_matcher.h"

namespace labbook::profiler {

namespace {
void take_metrics(Kernel& k, const Launch& launch, const LaunchMetrics& metrics) {
  if (!launch.selected) return;
  if (auto found = metrics.find(launch.index); found != metrics.end()) k.metrics = found->second;
}
}  // namespace

JoinedKernels kernels_from_records(std::vector<KernelRecord> records, const std::vector<Launch>& launches,
                                   const LaunchMetrics& metrics, const RangePaths& path_of) {
  LaunchMatcher matcher;
  for (const auto& l : launches) {
    if (l.runtime_correlation) matcher.add(l.runtime_correlation, l.index, l.mangled);
    matcher.add(l.driver_correlation, l.index, l.mangled);
  }
  matcher.seal();
  JoinedKernels joined;
  const std::vector<std::size_t> started = start_order(records);
  joined.kernels.reserve(started.size());
  for (std::size_t i = 0; i < started.size(); ++i) {
    const KernelRecord& record = records[started[i]];
    Kernel& k = joined.kernels.emplace_back(to_kernel(record, demangled(*record.mangled)));
    const std::optional<std::uint64_t> claimed = matcher.claim(k.correlation, k.mangled);
    if (!claimed) {
      joined.unmatched.push_back("kernel " + k.name + " has no launch record (correlation " + std::to_string(k.correlation) +
                                 ")");
      k.launch = launches.size() + i;
      continue;
    }
    const Launch& launch = launches[*claimed];
    k.launch = launch.index;
    k.range = path_of(launch.range);
    k.thread = launch.thread;
    k.default_stream = launch.default_stream;
    take_metrics(k, launch, metrics);
  }
  const auto by_launch = [](const Kernel& a, const Kernel& b) { return a.launch < b.launch; };
  if (!std::is_sorted(joined.kernels.begin(), joined.kernels.end(), by_launch))   // one stream's usually are
    std::sort(joined.kernels.begin(), joined.kernels.end(), by_launch);
  return joined;
}

std::vector<Kernel> kernels_from_launches(const std::vector<Launch>& launches, const LaunchMetrics& metrics,
                                          const RangePaths& path_of) {
  std::vector<Kernel> kernels;
  kernels.reserve(launches.size());
  for (const auto& l : launches) {
    Kernel& k = kernels.emplace_back();
    k.launch = l.index;
    k.mangled = *l.mangled;
    k.name = demangled(*l.mangled);
    k.range = path_of(l.range);
    k.thread = l.thread;
    k.device = l.device;
    k.default_stream = l.default_stream;
    k.correlation = l.runtime_correlation ? l.runtime_correlation : l.driver_correlation;
    take_metrics(k, l, metrics);
  }
  return kernels;
}

void name_copy_ranges(std::vector<Copy>& copies, const std::unordered_map<std::uint32_t, std::size_t>& range_by_correlation,
                      const RangePaths& path_of) {
  for (auto& c : copies)
    if (auto it = range_by_correlation.find(c.correlation); it != range_by_correlation.end()) c.range = path_of(it->second);
}

}  // namespace labbook::profiler
