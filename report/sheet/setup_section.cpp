#include "setup_section.h"

#include <algorithm>
#include <map>

#include "format.h"
#include "labbook/model/text.h"
#include "markdown_writer.h"
#include "labbook/model/metric_catalog.h"
#include "quantities.h"
#include "results_table.h"

namespace labbook::report {

using nlohmann::json;

namespace {

Text issue_advice(const Issue& issue) { return {strong(issue.code), {": " + issue.message}}; }

void add_setup_table(Sheet& sheet, const LabData& lab, const Measurement& m, bool recorded) {
  Table t{{"", recorded ? "Recorded run" : "This run"}, {}};
  json facts = json::object();
  if (m.devices.empty()) {
    t.rows.push_back({"GPU", "unknown (the measurement names no device)"});
  }
  for (const auto& d : m.devices) {
    const double peak = d.peak_dram_bytes_per_second();
    t.rows.push_back({"GPU", d.name + " (" + d.chip + ", compute capability " + std::to_string(d.cc_major) + "." +
                                 std::to_string(d.cc_minor) + ", " + std::to_string(d.sm_count) + " SMs)"});
    t.rows.push_back({"L2 cache", format_value(static_cast<double>(d.l2_bytes), "bytes")});
    t.rows.push_back({"Device memory", format_number("%.1f GiB", static_cast<double>(d.global_memory_bytes) / (1u << 30)) + ", " +
                                           std::to_string(d.memory_bus_width_bits) + "-bit bus at " +
                                           format_number("%.0f MHz", d.memory_clock_khz / 1e3)});
    t.rows.push_back({"Peak DRAM bandwidth", format_value(peak, "bytes/s") + " (2 x memory clock x bus width / 8)"});
    t.rows.push_back({"Driver", "CUDA " + std::to_string(d.driver_version / 1000) + "." +
                                    std::to_string(d.driver_version % 1000 / 10)});
    facts = {{"name", d.name}, {"chip", d.chip}, {"compute_capability", {d.cc_major, d.cc_minor}},
             {"sm_count", d.sm_count}, {"l2_bytes", d.l2_bytes}, {"peak_dram_bytes_per_second", peak},
             {"max_sm_clock_hz", d.sm_clock_khz * 1e3}, {"driver_version", d.driver_version}};
    // The published arithmetic peaks for this compute capability ([[peak]]), where the sheet uses them.
    const bool shows_peaks = lab.uses_peaks();
    for (const auto& p : lab.peaks) {
      const auto value = p.on(d);
      if (!value || !shows_peaks) continue;
      const std::string unit = p.quantity.unit();
      const std::string where = p.counter ? ", where " + p.counter->name() + " counts work" : "";
      t.rows.push_back({"Peak " + p.quantity.label() + where,
                        format_value(*value, unit) + " = " + format_number("%g", p.per_sm_per_clock) + " per clock per SM (" +
                            p.text + ") x " + std::to_string(d.sm_count) + " SMs x " +
                            format_number("%.0f MHz", d.sm_clock_khz / 1e3) + " (maximum SM clock); " + p.citation});
      facts["peaks"][p.quantity.name() + (p.counter ? " where " + p.counter->name() : "")] = *value;
    }
  }
  // The clock the kernels actually ran at: CUPTI 13.0 cannot lock it, so record it.
  std::vector<double> clocks;
  for (const auto& k : m.kernels)
    if (auto c = find_catalog_metric("sm_clock")->evaluate(k.metrics)) clocks.push_back(*c);
  std::string clock_cell = "not collected";
  if (!clocks.empty()) {
    std::sort(clocks.begin(), clocks.end());
    const double max_clock = m.devices.empty() ? 0 : m.devices.front().sm_clock_khz * 1e3;
    const double median = clocks[clocks.size() / 2];
    clock_cell = format_value(median, "Hz") + " median over kernels (" + format_value(clocks.front(), "Hz") + " to " +
                 format_value(clocks.back(), "Hz") + "; maximum " + format_value(max_clock, "Hz") +
                 "); clocks were not locked";
    // The counters' clock is cycles counted over the kernel's measured duration; the maximum
    // is the driver's figure. They are measured apart, so the first can read a little above.
    if (max_clock > 0 && median > max_clock)
      clock_cell += ". The median reads " + format_number("%.1f %%", 100.0 * (median / max_clock - 1)) +
                    " above the maximum: it is cycles counted over each kernel's measured duration, not the "
                    "driver's clock setting, so read the two as equal within that";
    facts["sm_clock_hz_median"] = median;
  }
  t.rows.push_back({"SM clock during kernels", clock_cell});
  t.rows.push_back({"CUPTI", std::to_string(m.program.cupti_version) + ", labbook collector " + m.program.collector_version});
  t.rows.push_back({"Measured", m.program.started_at});
  std::string command;
  for (const auto& a : m.program.command) command += (command.empty() ? "" : " ") + a;
  t.rows.push_back({"Command", command});
  t.rows.push_back({"Metrics collected by", metric_collection(m)});
  sheet.table(std::move(t));
  sheet.data["device"] = facts;
  sheet.measured_at = m.program.started_at;
  sheet.data["metric_replay"] = m.metric_replay.empty() ? "kernel" : m.metric_replay;
  sheet.data["cache_control"] = m.cache_control.empty() ? "none" : m.cache_control;
}

}  // namespace

std::string gpu_short_name(const Measurement& m) {
  std::string gpu = m.devices.empty() ? "its GPU" : m.devices.front().name;
  if (gpu.rfind("NVIDIA ", 0) == 0) gpu = gpu.substr(7, gpu.find(' ', 7) - 7);
  return gpu;
}

std::string measured_heading(const Measurement& m, bool recorded) {
  if (!recorded) return "Measured here";
  return "Measured on " + gpu_short_name(m) + " (recording)";
}

void add_how_measured(Sheet& sheet, const LabData& lab, const Measurement& m, bool recorded) {
  sheet.folded_heading("How this was measured");
  add_setup_table(sheet, lab, m, recorded);
  std::string how =
      "labbook's collector (CUPTI, injected with `CUDA_INJECTION64_PATH`) ran the lab program: a trace run "
      "(Activity API: kernel times, copies, API calls; NVTX ranges through CUPTI's NVTX callbacks)" +
      std::string(m.metrics_requested.empty()
                      ? ", and nothing else: the lab asks for no metrics"
                      : ", then metrics runs (Range Profiler, one range per kernel; see \"Metrics collected by\" above)") +
      ". Values are medians over the launches in each NVTX range. Quantities:\n\n";
  std::vector<Quantity> used;
  for (const auto& s : lab.sections)
    for (const auto& q : s.quantities)
      if (std::find(used.begin(), used.end(), q) == used.end()) used.push_back(q);
  for (const auto& q : used) how += "- `" + q.name() + "`: " + q.description() + "\n";
  sheet.markdown(how);
}

void add_not_reproduced(Sheet& sheet, const LabData& lab, Citations& citations) {
  if (!lab.not_reproduced.empty()) {
    sheet.folded_heading("Not reproduced here");
    sheet.markdown("Experiments of the sources this lab does not run, and why.");
    Table t{{"The source's experiment", "Why not here"}, {}};
    for (const auto& n : lab.not_reproduced)
      t.rows.push_back({Text{authored(n.experiment), {" [" + std::to_string(citations.number(n.citation)) + "]"}},
                        Text{authored(n.reason)}});
    sheet.table(std::move(t));
    for (const auto& n : lab.not_reproduced)
      sheet.data["not_reproduced"].push_back({{"experiment", n.experiment}, {"citation", n.citation}, {"reason", n.reason}});
  }

}

void add_collection_notes(Sheet& sheet, const Measurement& m) {
  sheet.folded_heading("Collection notes");
  std::vector<Text> notes;
  for (const auto& issue : m.issues) notes.push_back(issue_advice(issue));
  if (notes.empty()) sheet.markdown("Every requested metric was collected; no records were lost.");
  else sheet.list(std::move(notes));
  sheet.data["issues"] = json::array();
  for (const auto& issue : m.issues) sheet.data["issues"].push_back({{"code", issue.code}, {"message", issue.message}});

}

void add_references(Sheet& sheet, const LabData& lab, const Citations& citations) {
  sheet.folded_heading("References");
  std::string refs;
  std::vector<const SourceDocument*> cited;
  for (std::size_t i = 0; i < citations.list().size(); ++i) {
    const std::string& citation = citations.list()[i];
    const std::string::size_type comma = citation.find(',');
    const SourceDocument* doc = cited_document(lab.sources, citation);
    refs += std::to_string(i + 1) + ". " + (doc ? "**" + doc->short_name + "**" : "`" + citation.substr(0, comma) + "`") +
            (comma == std::string::npos ? "" : citation.substr(comma)) + "\n";
    if (doc && std::find(cited.begin(), cited.end(), doc) == cited.end()) cited.push_back(doc);
  }
  if (!cited.empty()) {
    refs += "\nThe documents cited (title as the text gives it, then in English):\n\n";
    for (const SourceDocument* doc : cited)
      refs += "- **" + doc->short_name + "**: " + doc->summary() + "; `" + doc->file + "`\n";
  }
  // One line per GPU and build, listing the experiments it gave values for, not a line a value.
  std::vector<std::pair<std::string, std::vector<std::string>>> by_setup;
  for (const auto& r : lab.references) {
    const std::string setup = r.gpu + (r.build.empty() ? "" : "; " + r.build);
    auto it = std::find_if(by_setup.begin(), by_setup.end(), [&](const auto& s) { return s.first == setup; });
    if (it == by_setup.end()) it = by_setup.insert(by_setup.end(), {setup, {}});
    const std::string name = experiment_label(r.experiment);
    if (std::find(it->second.begin(), it->second.end(), name) == it->second.end()) it->second.push_back(name);
  }
  if (!by_setup.empty()) refs += "\nThe GPU and build behind the source values:\n\n";
  for (const auto& [setup, experiments] : by_setup)
    refs += "- " + escape_inline(setup) + ": " + escape_inline(join(experiments, ", ")) + "\n";
  sheet.markdown(refs);

}

}  // namespace labbook::report
