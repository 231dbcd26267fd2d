#include "activity_summary.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "labbook/model/metric_catalog.h"
#include "labbook/model/numbers.h"

namespace labbook::report {

namespace {

/// Accumulates durations by name and keeps first-seen order for ties.
class ActivityTable {
 public:
  void add(const std::string& name, std::uint64_t start, std::uint64_t end) {
    const std::uint64_t d = end > start ? end - start : 0;
    auto [it, inserted] = index_.try_emplace(name, rows_.size());
    if (inserted) rows_.push_back({name, 0, 0, d, d, 0});
    ActivityRow& r = rows_[it->second];
    ++r.calls;
    r.total_ns += d;
    r.min_ns = std::min(r.min_ns, d);
    r.max_ns = std::max(r.max_ns, d);
  }
  std::vector<ActivityRow> rows() && {
    std::uint64_t total = 0;
    for (const auto& r : rows_) total += r.total_ns;
    for (auto& r : rows_) r.share_pct = total ? 100.0 * static_cast<double>(r.total_ns) / static_cast<double>(total) : 0.0;
    std::stable_sort(rows_.begin(), rows_.end(),
                     [](const ActivityRow& a, const ActivityRow& b) { return a.total_ns > b.total_ns; });
    return std::move(rows_);
  }

 private:
  std::vector<ActivityRow> rows_;
  std::map<std::string, std::size_t> index_;
};

std::string copy_name(const Copy& c) {
  if (c.is_memset) return "[CUDA memset]";
  return std::string("[CUDA memcpy ") + to_string(c.kind) + "]";
}

}  // namespace

std::vector<ActivityRow> gpu_activities(const Measurement& m) {
  ActivityTable table;
  for (const auto& k : m.kernels)
    if (k.start_ns && k.end_ns) table.add(k.name, *k.start_ns, *k.end_ns);
  for (const auto& c : m.copies) table.add(copy_name(c), c.start_ns, c.end_ns);
  return std::move(table).rows();
}

std::vector<ActivityRow> gpu_activities_in(const Measurement& m, const std::string& range, bool kernels_together) {
  ActivityTable table;
  for (const auto& k : m.kernels)
    if (k.range == range && k.start_ns && k.end_ns) table.add(kernels_together ? "kernels" : k.name, *k.start_ns, *k.end_ns);
  for (const auto& c : m.copies)
    if (c.range == range) table.add(copy_name(c), c.start_ns, c.end_ns);
  return std::move(table).rows();
}

std::vector<ActivityRow> api_call_statistics(const Measurement& m) {
  ActivityTable table;
  for (const auto& a : m.api_calls) table.add(a.name, a.start_ns, a.end_ns);
  return std::move(table).rows();
}

std::vector<std::string> shown_metrics(const Measurement& m) {
  std::set<std::string> collected;
  for (const auto& k : m.kernels)
    for (const auto& [name, value] : k.metrics) collected.insert(name);
  std::vector<std::string> out;
  std::set<std::string> covered;
  for (const auto& c : metric_catalog()) {
    const bool all = std::all_of(c.inputs.begin(), c.inputs.end(),
                                 [&](const std::string& i) { return collected.count(i) > 0; });
    if (!all) continue;
    out.push_back(c.name);
    covered.insert(c.inputs.begin(), c.inputs.end());
  }
  for (const auto& name : m.metrics_requested)
    if (collected.count(name) && !covered.count(name)) out.push_back(name);
  return out;
}

std::optional<double> shown_metric_value(const std::string& name, const Kernel& k) {
  for (const auto& c : metric_catalog())
    if (c.name == name) return c.evaluate(k.metrics);
  if (auto it = k.metrics.find(name); it != k.metrics.end()) return it->second;
  return std::nullopt;
}

std::vector<RangeKernels> kernels_by_range(const Measurement& m) {
  const std::vector<std::string> metrics = shown_metrics(m);
  std::vector<RangeKernels> out;
  std::map<std::pair<std::string, std::string>, std::size_t> index;
  std::map<std::size_t, std::vector<double>> durations;
  for (const auto& k : m.kernels) {
    const std::string kernel = kernel_short_name(k.name);
    auto [it, inserted] = index.try_emplace({k.range_or_name(), kernel}, out.size());
    if (inserted) out.push_back({k.range_or_name(), kernel, 0, std::nullopt, {}});
    RangeKernels& r = out[it->second];
    ++r.launches;
    if (auto d = k.duration_ns()) durations[it->second].push_back(*d);
    for (const auto& name : metrics)
      if (auto v = shown_metric_value(name, k)) r.metrics[name].push_back(*v);
  }
  for (auto& [i, d] : durations) out[i].median_ns = median(d);
  return out;
}

std::string nvprof_duration(double ns) {
  struct Unit { double scale; const char* suffix; };
  const Unit units[] = {{1.0, "ns"}, {1e3, "us"}, {1e6, "ms"}, {1e9, "s"}};
  const Unit* u = &units[0];
  for (const auto& candidate : units)
    if (std::fabs(ns) >= candidate.scale) u = &candidate;
  const double v = ns / u->scale;
  // Five significant digits, as nvprof printed them; seconds got five decimals.
  const int integer_digits = std::fabs(v) >= 100 ? 3 : std::fabs(v) >= 10 ? 2 : 1;
  const int decimals = u->scale == 1e9 ? 5 : 5 - integer_digits;
  return with_decimals(v, decimals) + u->suffix;
}

}  // namespace labbook::report
