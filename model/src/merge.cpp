#include "labbook/model/merge.h"

#include <algorithm>
#include <map>
#include <string>
#include <tuple>

namespace labbook {

namespace {

/// (range, mangled name, n-th such launch): the same in both runs of a deterministic
/// program, whatever order its threads launched in.
using KernelKey = std::tuple<std::string, std::string, std::size_t>;

std::vector<KernelKey> keys(const std::vector<Kernel>& kernels) {
  std::map<std::pair<std::string, std::string>, std::size_t> seen;
  std::vector<KernelKey> out;
  for (const auto& k : kernels) out.emplace_back(k.range, k.mangled, seen[{k.range, k.mangled}]++);
  return out;
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

Measurement merge_runs(Measurement trace, const Measurement& metrics) {
  Measurement& m = trace;
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

  std::map<KernelKey, const Kernel*> measured;
  const auto metric_keys = keys(metrics.kernels);
  for (std::size_t i = 0; i < metrics.kernels.size(); ++i) measured[metric_keys[i]] = &metrics.kernels[i];
  const auto trace_keys = keys(m.kernels);
  std::size_t unmatched = 0;
  for (std::size_t i = 0; i < m.kernels.size(); ++i) {
    const auto it = measured.find(trace_keys[i]);
    if (it == measured.end()) {
      ++unmatched;
      continue;
    }
    for (const auto& [name, value] : it->second->metrics) m.kernels[i].metrics[name] = value;
    measured.erase(it);
  }
  if (unmatched || !measured.empty())
    m.issues.push_back({"launch_mismatch", std::to_string(unmatched) + " kernels of the trace run and " +
                                               std::to_string(measured.size()) +
                                               " of the metrics run found no partner (same range, name and "
                                               "launch count) in the other run; they have no metrics"});
  return m;
}

void merge_sass(Measurement& into, const Measurement& source) {
  std::map<KernelKey, const Kernel*> measured;
  const auto source_keys = keys(source.kernels);
  for (std::size_t i = 0; i < source.kernels.size(); ++i)
    if (!source.kernels[i].sass.empty()) measured[source_keys[i]] = &source.kernels[i];
  const auto into_keys = keys(into.kernels);
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
