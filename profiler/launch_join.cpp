#include "launch_join.h"

#include <algorithm>
#include <optional>
#include <tuple>
#include <utility>

#include "labbook/model/text.h"
#include "launch_matcher.h"

namespace labbook::profiler {

namespace {
void take_metrics(Kernel& k, const Launch& launch, const LaunchMetrics& metrics) {
  if (!launch.selected) return;
  if (auto found = metrics.find(launch.index); found != metrics.end()) k.metrics = found->second;
}

/// The kernel of launch `l`, made in NVTX range `range`, without the trace's records.
Kernel kernel_of(const Launch& l, std::string range, const LaunchMetrics& metrics) {
  Kernel k;
  k.launch = l.index;
  k.mangled = *l.mangled;
  k.name = demangled(*l.mangled);
  k.range = std::move(range);
  k.thread = l.thread;
  k.device = l.device;
  k.default_stream = l.default_stream;
  k.correlation = l.runtime_correlation ? l.runtime_correlation : l.driver_correlation;
  take_metrics(k, l, metrics);
  return k;
}
}  // namespace

JoinedKernels::JoinedKernels(std::vector<KernelRecord> records, std::vector<Launch> launches, LaunchMetrics metrics,
                             const RangePaths& path_of)
    : records_(std::move(records)), launches_(std::move(launches)), metrics_(std::move(metrics)) {
  LaunchMatcher matcher;
  matcher.reserve(2 * launches_.size());
  for (const auto& l : launches_) {
    if (l.runtime_correlation) matcher.add(l.runtime_correlation, l.index, l.mangled);
    matcher.add(l.driver_correlation, l.index, l.mangled);
  }
  matcher.seal();
  const std::vector<std::size_t> started = start_order(records_);
  rows_.reserve(started.size());
  for (std::size_t i = 0; i < started.size(); ++i) {
    const KernelRecord& record = records_[started[i]];
    static const std::string kNoName;
    const std::string& mangled = record.mangled ? *record.mangled : kNoName;
    auto name = names_.find(record.mangled);
    if (name == names_.end()) name = names_.emplace(record.mangled, demangled(mangled)).first;
    const std::optional<std::uint64_t> claimed = matcher.claim(record.correlation, mangled);
    if (!claimed) {
      unmatched_.push_back("kernel " + name->second + " has no launch record (correlation " +
                           std::to_string(record.correlation) + ")");
      rows_.push_back({launches_.size() + i, started[i], false});
      continue;
    }
    const std::size_t range = launches_[*claimed].range;
    if (!paths_.count(range)) paths_.emplace(range, path_of(range));
    rows_.push_back({*claimed, started[i], true});
  }
  const auto by_launch = [](const Row& a, const Row& b) { return a.launch < b.launch; };
  if (!std::is_sorted(rows_.begin(), rows_.end(), by_launch))   // one stream's usually are
    std::sort(rows_.begin(), rows_.end(), by_launch);
}

void JoinedKernels::make(std::size_t i, Kernel& k) const {
  const Row& row = rows_[i];
  const KernelRecord& record = records_[row.record];
  make_kernel(record, names_.at(record.mangled), k);
  k.launch = row.launch;
  if (!row.claimed) return;
  const Launch& launch = launches_[row.launch];
  // The runtime call's id, whichever of its two calls' the record held: the timeline links
  // the kernel to the runtime call's record by it.
  k.correlation = launch.runtime_correlation ? launch.runtime_correlation : launch.driver_correlation;
  k.range.assign(paths_.at(launch.range));
  k.thread = launch.thread;
  k.default_stream = launch.default_stream;
  take_metrics(k, launch, metrics_);
}

MadeRows<Kernel> JoinedKernels::rows() const {
  return {rows_.size(), [this](std::size_t i, Kernel& into) { make(i, into); },
          earliest_record_time_ns(records_)};
}

std::vector<Kernel> kernels_from_launches(const std::vector<Launch>& launches, const LaunchMetrics& metrics,
                                          const RangePaths& path_of) {
  std::vector<Kernel> kernels;
  kernels.reserve(launches.size());
  for (const auto& l : launches) kernels.push_back(kernel_of(l, path_of(l.range), metrics));
  return kernels;
}

std::optional<ProfiledKernels> profiled_kernels_from_launches(const std::vector<Launch>& launches,
                                                              const LaunchMetrics& metrics, const RangePaths& path_of) {
  // Launches are counted by (path, kernel): ranges of one path (a loop's) count together.
  std::vector<std::string> paths;
  std::unordered_map<std::string, std::size_t> path_index;
  std::unordered_map<std::size_t, std::size_t> path_of_range;   // range id -> paths' index
  std::map<std::pair<std::size_t, const std::string*>, std::uint64_t> launches_of;   // names are interned
  ProfiledKernels out;
  for (const auto& l : launches) {
    auto known = path_of_range.find(l.range);
    if (known == path_of_range.end()) {
      std::string path = path_of(l.range);
      const auto [at, added] = path_index.emplace(path, paths.size());
      if (added) paths.push_back(std::move(path));
      known = path_of_range.emplace(l.range, at->second).first;
    }
    std::uint64_t& before = launches_of[{known->second, l.mangled}];
    if (l.selected) {
      Kernel& k = out.kernels.emplace_back(kernel_of(l, paths[known->second], metrics));
      k.ordinal = before;
    }
    ++before;
  }
  // A range per iteration, or every launch profiled, would make as many records as launches.
  if (2 * (out.kernels.size() + launches_of.size()) > launches.size()) return std::nullopt;
  for (const auto& [key, count] : launches_of) out.tally.push_back({paths[key.first], *key.second, count});
  std::sort(out.tally.begin(), out.tally.end(), [](const LaunchTally& a, const LaunchTally& b) {
    return std::tie(a.range, a.mangled) < std::tie(b.range, b.mangled);   // the same file from the same run
  });
  return out;
}

void name_copy_ranges(std::vector<Copy>& copies, const std::unordered_map<std::uint32_t, std::size_t>& range_by_correlation,
                      const RangePaths& path_of) {
  for (auto& c : copies)
    if (auto it = range_by_correlation.find(c.correlation); it != range_by_correlation.end()) c.range = path_of(it->second);
}

}  // namespace labbook::profiler
