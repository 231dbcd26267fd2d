#include "labbook/model/merge.h"

#include <algorithm>
#include <map>
#include <string>
#include <string_view>
#include <tuple>

namespace labbook {

namespace {

/// (range, mangled name, n-th such launch): the same in both runs of a deterministic
/// program, whatever order its threads launched in.
using KernelKey = std::tuple<std::string_view, std::string_view, std::uint64_t>;

/// A run's kernels keyed, and how many of them each range launched of each kernel.
struct KeyedKernels {
  std::vector<KernelKey> keys;
  LaunchCounts counted;   // views into the measurements merged
};

/// Each kernel's key: the ordinal its run gave it, or else its place among its kind in `kernels`.
KeyedKernels keyed(const std::vector<Kernel>& kernels) {
  KeyedKernels out;
  out.keys.reserve(kernels.size());
  for (const auto& k : kernels) {
    std::uint64_t& n = out.counted[{k.range, k.mangled}];
    out.keys.emplace_back(k.range, k.mangled, k.ordinal.value_or(n));
    ++n;
  }
  return out;
}

/// The run's launches by range and kernel: its tally where it carries only some kernels.
LaunchCounts launches_of(const Measurement& m, const KeyedKernels& keyed) {
  return m.launch_tally ? launches_by_range_and_kernel(*m.launch_tally) : keyed.counted;
}

/// The launches `ours` counts beyond `theirs`, range by range and kernel by kernel.
std::uint64_t launches_beyond(const LaunchCounts& ours, const LaunchCounts& theirs) {
  std::uint64_t beyond = 0;
  for (const auto& [key, n] : ours) {
    const auto it = theirs.find(key);
    const std::uint64_t other = it == theirs.end() ? 0 : it->second;
    if (n > other) beyond += n - other;
  }
  return beyond;
}

/// Adds each issue of `from` that `into` does not hold word for word: runs often say the same
/// (a GPU without some metric), but one run's note must not hide another's of the same code
/// (a metric's first run and its last say different things).
void add_issues_once(std::vector<Issue>& into, const std::vector<Issue>& from) {
  for (const auto& issue : from)
    if (std::none_of(into.begin(), into.end(),
                     [&](const Issue& i) { return i.code == issue.code && i.message == issue.message; }))
      into.push_back(issue);
}

}  // namespace

Measurement merge_runs(Measurement m, const Measurement& metrics) {
  m.program.mode = "trace+metrics";
  m.metrics_requested = metrics.metrics_requested;
  m.metric_scope = metrics.metric_scope;
  m.metric_passes = metrics.metric_passes;
  m.metric_replay = metrics.metric_replay;
  m.cache_control = metrics.cache_control;
  // The run that ended abnormally says why collection stopped.
  if (!metrics.program.stop_reason.empty() && metrics.program.stop_reason != "exit")
    m.program.stop_reason = metrics.program.stop_reason;
  if (m.devices.empty()) m.devices = metrics.devices;
  add_issues_once(m.issues, metrics.issues);

  const KeyedKernels metric = keyed(metrics.kernels), traced = keyed(m.kernels);
  std::map<KernelKey, const Kernel*> measured;
  for (std::size_t i = 0; i < metrics.kernels.size(); ++i) measured[metric.keys[i]] = &metrics.kernels[i];
  for (std::size_t i = 0; i < m.kernels.size(); ++i)
    if (const auto it = measured.find(traced.keys[i]); it != measured.end())
      for (const auto& [name, value] : it->second->metrics) m.kernels[i].metrics[name] = value;
  // Counted, not matched: a metrics run may carry only the kernels it profiled.
  const auto trace_launches = launches_of(m, traced), metrics_launches = launches_of(metrics, metric);
  const std::uint64_t unmatched = launches_beyond(trace_launches, metrics_launches);
  const std::uint64_t unpartnered = launches_beyond(metrics_launches, trace_launches);
  if (unmatched || unpartnered)
    m.issues.push_back({"launch_mismatch", std::to_string(unmatched) + " kernels of the trace run and " +
                                               std::to_string(unpartnered) +
                                               " of the metrics run found no partner (same range, name and "
                                               "launch count) in the other run; they have no metrics"});
  return m;
}

void merge_sass(Measurement& into, const Measurement& source) {
  std::map<KernelKey, const Kernel*> measured;
  const auto source_keys = keyed(source.kernels).keys;
  for (std::size_t i = 0; i < source.kernels.size(); ++i)
    if (!source.kernels[i].sass.empty()) measured[source_keys[i]] = &source.kernels[i];
  const auto into_keys = keyed(into.kernels).keys;
  for (std::size_t i = 0; i < into.kernels.size(); ++i)
    if (const auto it = measured.find(into_keys[i]); it != measured.end()) {
      into.kernels[i].sass = it->second->sass;
      into.kernels[i].sass_launches = it->second->sass_launches;
      measured.erase(it);
    }
  if (!measured.empty())
    into.issues.push_back({"launch_mismatch", std::to_string(measured.size()) +
                                                  " kernels of the source run found no partner (same range, name and "
                                                  "launch count) in the other runs; their lines are not shown"});
  add_issues_once(into.issues, source.issues);
}

}  // namespace labbook
