#include "profile_summary.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "activity_summary.h"
#include "format.h"
#include "markdown_writer.h"
#include "memory_chart.h"
#include "roofline_chart.h"
#include "source_lines_table.h"
#include "quantities.h"
#include "labbook/model/metric_catalog.h"
#include "labbook/model/text.h"

namespace labbook::report {

using nlohmann::json;

namespace {

std::string percent(double v) { return format_number("%.2f%%", v); }

Table activity_table(const std::vector<ActivityRow>& rows) {
  Table t{{"Time(%)", "Time", "Calls", "Avg", "Min", "Max", "Name"}, {}};
  for (const auto& r : rows)
    t.rows.push_back({percent(r.share_pct), nvprof_duration(static_cast<double>(r.total_ns)),
                      std::to_string(r.calls), nvprof_duration(r.average_ns()),
                      nvprof_duration(static_cast<double>(r.min_ns)), nvprof_duration(static_cast<double>(r.max_ns)),
                      r.name});
  return t;
}

json activity_json(const std::vector<ActivityRow>& rows) {
  json out = json::array();
  for (const auto& r : rows)
    out.push_back({{"name", r.name}, {"calls", r.calls}, {"total_ns", r.total_ns}, {"min_ns", r.min_ns},
                   {"max_ns", r.max_ns}, {"share_pct", r.share_pct}});
  return out;
}

std::string metric_unit(const std::string& name) {
  const CatalogMetric* c = find_catalog_metric(name);
  return c ? c->unit : "";
}

/// Mean, with the spread when launches differ by more than 1 %.
std::string metric_cell(const std::vector<double>& values, const std::string& unit) {
  if (values.empty()) return "—";
  const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
  double sum = 0;
  for (double v : values) sum += v;
  std::string cell = format_value(sum / static_cast<double>(values.size()), unit);
  if (*hi - *lo > 0.01 * std::max(std::fabs(*hi), std::fabs(*lo)))
    cell += " (" + format_value(*lo, unit) + " – " + format_value(*hi, unit) + ")";
  return cell;
}

std::vector<Text> run_facts(const Measurement& m) {
  std::vector<Text> lines = {{{"Command: "}, code(join(m.program.command, " "))}};
  if (!m.devices.empty()) {
    const auto& d = m.devices.front();
    lines.push_back("GPU: " + d.name + " (compute capability " + std::to_string(d.cc_major) + "." +
                    std::to_string(d.cc_minor) + ")");
  }
  lines.push_back("Exit code: " + (m.program.exit_code ? std::to_string(*m.program.exit_code) : std::string("unknown")) +
                  "; collection ended by: " + (m.program.stop_reason.empty() ? "unknown" : m.program.stop_reason));
  if (!m.metrics_requested.empty()) {
    lines.push_back("Metrics: " + std::to_string(m.metrics_requested.size()) + " CUPTI metrics by " +
                    metric_collection(m) + "; kernels profiled: " +
                    (m.metric_scope.empty() ? std::string("all") : m.metric_scope));
  }
  return lines;
}

/// Charts the summary draws at most: a program with hundreds of kernels would bury the page.
constexpr std::size_t kMemoryChartLimit = 20;
/// Lines shown per kernel in "Lines that move memory".
constexpr std::size_t kSourceLineLimit = 10;

/// A (range, kernel)'s values as the table above shows them: each metric's mean over its
/// launches, and "time" the median kernel time.
MeasuredQuantity group_values(const RangeKernels& r) {
  return [&r](const std::string& name) -> std::optional<double> {
    if (name == "time") return r.median_ns;
    const auto it = r.metrics.find(name);
    if (it == r.metrics.end() || it->second.empty()) return std::nullopt;
    double sum = 0;
    for (double v : it->second) sum += v;
    return sum / static_cast<double>(it->second.size());
  };
}

std::string group_name(const RangeKernels& r) { return r.range == r.kernel ? r.kernel : r.range + ": " + r.kernel; }

/// A memory chart per (range, kernel) with memory counters, values the mean over its launches
/// as in the table above; the first kMemoryChartLimit of them.
void add_group_memory_charts(Sheet& s, const Measurement& m, const std::vector<RangeKernels>& groups) {
  std::vector<std::pair<const RangeKernels*, MemoryFlow>> charted;
  for (const auto& r : groups) {
    MemoryFlow flow = memory_flow(group_values(r));
    if (flow.any()) charted.emplace_back(&r, std::move(flow));
  }
  if (charted.empty()) return;
  s.heading(2, "Memory charts");
  std::string intro =
      "Where each kernel's memory traffic went: requests (warp instructions) and 32-byte sectors from the threads to "
      "L1, L1's hit rate, sectors from L1 to L2, L2's hit rate, bytes between L2 and DRAM, and shared memory's "
      "instructions, wavefronts and bank conflicts; the mean over the range's launches.";
  if (charted.size() > kMemoryChartLimit)
    intro += " The first " + std::to_string(kMemoryChartLimit) + " of " + std::to_string(charted.size()) +
             " kernels with memory counters are drawn.";
  std::vector<std::string> missing;
  const std::vector<std::string> shown = shown_metrics(m);
  for (const auto& q : memory_flow_quantities())
    if (std::find(shown.begin(), shown.end(), q) == shown.end()) missing.push_back(q);
  if (!missing.empty())
    intro += " Not collected in this run, so \"not measured\" in the charts: " + join(missing, ", ") +
             " (add them to `--metrics` to see them).";
  s.markdown(intro);
  s.data["memory_charts"] = json::array();
  for (std::size_t i = 0; i < charted.size() && i < kMemoryChartLimit; ++i) {
    const RangeKernels& r = *charted[i].first;
    const MemoryFlow& flow = charted[i].second;
    const std::string name = group_name(r);
    const std::string file = "memory-" + std::to_string(i + 1) + ".svg";
    s.figures.push_back({file, memory_chart_svg(flow, name + " (mean over " + std::to_string(r.launches) + " " +
                                                          (r.launches == 1 ? "launch" : "launches") + ")")});
    s.heading(3, escape_inline(name));
    s.markdown("![" + escape_inline("Memory chart of " + name + ". " + memory_flow_description(flow)) + "](" + file + ")");
    s.data["memory_charts"].push_back({{"range", r.range}, {"kernel", r.kernel}, {"figure", file},
                                       {"measured", memory_flow_json(flow)}});
  }
}

/// The roofline of the first kMemoryChartLimit (range, kernel)s whose FLOPs were collected,
/// under this GPU's DRAM roof and the FMA ceilings of `peaks`; nothing without FLOP counters.
void add_roofline(Sheet& s, const Measurement& m, const std::vector<RangeKernels>& groups,
                  const std::vector<ArithmeticPeak>& peaks) {
  Roofline roofline = roofline_for(m, peaks);
  std::size_t with_flops = 0;
  for (const auto& r : groups) {
    RooflineKernel k = roofline_kernel(group_name(r), group_values(r));
    if (!k.flops_sp && !k.flops_dp) continue;
    ++with_flops;
    if (roofline.kernels.size() < kMemoryChartLimit) roofline.kernels.push_back(std::move(k));
  }
  if (roofline.kernels.empty()) return;
  s.heading(2, "Roofline");
  std::string intro =
      "Each kernel's FLOPs per byte of DRAM traffic against the FLOP rate it reached (means over its launches, "
      "median time), under this GPU's theoretical DRAM bandwidth and its FMA lanes' peaks. A kernel left of where "
      "a ceiling meets the slope can go no faster than DRAM feeds it; one right of it, no faster than its "
      "arithmetic.";
  if (with_flops > kMemoryChartLimit)
    intro += " The first " + std::to_string(kMemoryChartLimit) + " of " + std::to_string(with_flops) +
             " kernels with FLOP counters are drawn.";
  if (const std::string note = l2_roof_note(roofline); !note.empty()) intro += " " + note;
  if (roofline.ceilings.empty()) intro += " labbook knows no FMA peak for this GPU's compute capability (labs/peaks.toml).";
  s.markdown(intro + "\n\n![" + escape_inline(roofline_description(roofline)) + "](roofline.svg)");
  s.figures.push_back({"roofline.svg", roofline_svg(roofline, "kernels with FLOP counters", "rl")});
  s.data["roofline"] = roofline_json(roofline);
}

/// Per kernel with SASS counts (`profile --source`), the instructions of all its launches
/// summed to source lines: the lines that move memory, most excess sectors first. Named by
/// its range where all the launches counted ran in one.
void add_source_lines(Sheet& s, const Measurement& m) {
  std::vector<std::pair<std::string, std::vector<SassInstruction>>> groups;   // in launch order
  for (const auto& k : m.kernels) {
    if (k.sass.empty()) continue;
    std::set<std::string> ranges;
    for (const Kernel* c : sass_covered(m.kernels, k)) ranges.insert(c->range_or_name());
    const std::string kernel = kernel_short_name(k.name), range = k.range_or_name();
    std::string name = ranges.size() == 1 && range != kernel ? range + ": " + kernel : kernel;
    if (k.sass_launches > 1) name += " (" + std::to_string(k.sass_launches) + " launches)";
    auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == name; });
    if (it == groups.end()) it = groups.insert(groups.end(), {name, {}});
    it->second.insert(it->second.end(), k.sass.begin(), k.sass.end());
  }
  if (groups.empty()) return;
  s.heading(2, "Lines that move memory");
  s.markdown("Each kernel's source lines by what their global, shared and local accesses cost, from CUPTI's "
             "per-instruction counts summed over all the kernel's launches (CUPTI counts one kernel per run of the program, all its launches together): requests (warp instructions), 32-byte "
             "sectors per request against the least that carries the same bytes (the ideal), the sectors beyond "
             "it and their share of the kernel's, shared-memory wavefronts per request against the ideal, and "
             "local-memory sectors (spills). Lines that waste most come first. A line is where the compiler's "
             "line table puts the instruction: code the compiler inlined from a helper function (an index "
             "function, say) is listed on the helper's line, not at its call, as in Nsight Compute's view of the "
             "helper's file; CUPTI does not give the call site.");
  s.data["source_lines"] = json::array();
  for (std::size_t i = 0; i < groups.size() && i < kMemoryChartLimit; ++i) {
    const SourceProfile profile = source_profile(groups[i].second);
    s.heading(3, escape_inline(groups[i].first));
    if (!profile.line_info)
      s.markdown("No line information in this kernel's code: rows are its instructions (function and offset). "
                 "Build with `nvcc -lineinfo` to see source lines.");
    if (!profile.missing.empty())
      s.markdown("This GPU reported no `" + join(profile.missing, "`, `") + "`: those columns read \"—\".");
    if (profile.lines.empty()) {
      s.markdown("No line moved global, shared or local memory.");
    } else {
      s.table(source_lines_table(profile, kSourceLineLimit));
      if (profile.lines.size() > kSourceLineLimit)
        s.markdown("The first " + std::to_string(kSourceLineLimit) + " of " + std::to_string(profile.lines.size()) +
                   " lines that move memory are shown.");
    }
    s.data["source_lines"].push_back(
        {{"kernel", groups[i].first}, {"line_info", profile.line_info}, {"lines", source_lines_json(profile)}});
  }
}

}  // namespace

Sheet build_profile_summary(const Measurement& m, const std::string& timeline_file,
                            const std::vector<ArithmeticPeak>& peaks) {
  Sheet s;
  const std::string program = m.program.command.empty() ? "program" : m.program.command.front();
  s.title = "labbook profile: " + program;
  s.heading(1, "labbook profile: " + escape_inline(program));   // a path may hold '*', '_', '<'...
  s.lines(run_facts(m));
  if (!m.issues.empty()) {
    s.lines({{strong("What could not be collected")}});
    std::vector<Text> items;
    for (const auto& i : m.issues) items.push_back({code(i.code), {": " + i.message}});
    s.list(std::move(items));
  }
  s.data["issues"] = json::array();
  for (const auto& i : m.issues) s.data["issues"].push_back({{"code", i.code}, {"message", i.message}});

  const auto gpu = gpu_activities(m);
  s.heading(2, "GPU activities");
  if (gpu.empty()) s.markdown("No kernel, copy or memset was traced.");
  else s.table(activity_table(gpu));
  s.data["gpu_activities"] = activity_json(gpu);

  const auto api = api_call_statistics(m);
  s.heading(2, "API calls");
  if (api.empty()) s.markdown("No CUDA runtime call was traced.");
  else s.table(activity_table(api));
  s.data["api_calls"] = activity_json(api);

  s.heading(2, "Kernels per NVTX range");
  s.markdown("A kernel launched outside any NVTX range is listed under its own name. Metric cells show the "
             "mean over the range's launches, and the spread when launches differ by more than 1 %.");
  const std::vector<std::string> metrics = shown_metrics(m);
  Table t{{"Range", "Kernel", "Launches", "Time (median)"}, {}};
  for (const auto& name : metrics) t.header.push_back(name);
  s.data["ranges"] = json::array();
  const std::vector<RangeKernels> groups = kernels_by_range(m);
  for (const auto& r : groups) {
    std::vector<Text> row = {r.range, r.kernel, std::to_string(r.launches),
                                    r.median_ns ? nvprof_duration(*r.median_ns) : "—"};
    json jr = {{"range", r.range}, {"kernel", r.kernel}, {"launches", r.launches}, {"metrics", json::object()}};
    if (r.median_ns) jr["median_ns"] = *r.median_ns;
    for (const auto& name : metrics) {
      const auto it = r.metrics.find(name);
      row.push_back(it == r.metrics.end() ? "—" : metric_cell(it->second, metric_unit(name)));
      if (it != r.metrics.end()) jr["metrics"][name] = it->second;
    }
    t.rows.push_back(std::move(row));
    s.data["ranges"].push_back(std::move(jr));
  }
  s.table(std::move(t));
  add_group_memory_charts(s, m, groups);
  add_roofline(s, m, groups, peaks);
  add_source_lines(s, m);

  if (!m.memory_events.empty()) {
    s.heading(2, "Unified memory");
    std::map<std::string, std::pair<std::size_t, std::uint64_t>> by_kind;
    for (const auto& e : m.memory_events) {
      ++by_kind[e.kind].first;
      by_kind[e.kind].second += e.value;
    }
    Table u{{"Event", "Count", "Total value"}, {}};
    for (const auto& [kind, stats] : by_kind) {
      const bool bytes = kind == "htod" || kind == "dtoh" || kind == "dtod";
      u.rows.push_back({kind, std::to_string(stats.first),
                        bytes ? with_thousands(static_cast<long long>(stats.second)) + " bytes"
                              : kind == "gpu_page_fault" ? with_thousands(static_cast<long long>(stats.second)) + " fault groups"
                                                         : "—"});
      s.data["unified_memory"][kind] = {{"count", stats.first}, {"total_value", stats.second}};
    }
    s.table(std::move(u));
  }

  if (!timeline_file.empty()) {
    s.heading(2, "Timeline");
    s.markdown("![Timeline of ranges, API calls, kernels and copies](" + timeline_file +
               ")\n\nOpen `trace.json.gz` in <https://ui.perfetto.dev> to zoom in.");
  }
  return s;
}

}  // namespace labbook::report
