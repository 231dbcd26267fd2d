#include "sheet_builder.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <map>
#include <regex>

#include "activity_summary.h"
#include "architecture.h"
#include "bar_chart.h"
#include "claim_verdict.h"
#include "format.h"
#include "line_chart.h"
#include "markdown_writer.h"
#include "memory_chart.h"
#include "source_lines_table.h"
#include "roofline_chart.h"
#include "labbook/model/metric_catalog.h"
#include "labbook/model/text.h"
#include "model_predictions.h"
#include "quantities.h"
#include "resource_section.h"
#include "timeline_svg.h"
#include "warp_figure.h"

namespace labbook::report {

using nlohmann::json;

namespace {

std::string printf1(const char* format, double v) {
  char buf[128];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

/// "Fermi M2070 (the chapter's GPU...)" -> "Fermi M2070" for table cells.
std::string short_gpu(const std::string& gpu) { return gpu.substr(0, gpu.find(" (")); }

json value_json(const QuantityValue& v, const std::string& unit) {
  json j = {{"unit", unit}};
  if (v.value) j["value"] = *v.value;
  else j["missing"] = v.missing;
  if (v.varies()) j["repeats"] = v.samples;   // the run-to-run noise behind the median
  return j;
}

std::string cell(const QuantityValue& v, const std::string& unit) {
  return v.value ? format_value(*v.value, unit) : v.missing;
}

/// The model column's verdict as a badge: "as predicted", or "differs" and by how much and why.
Text model_verdict_text(const std::string& verdict) {
  if (verdict == "—") return verdict;
  if (verdict == "as predicted") return Text{badge(Badge::kAsPredicted, verdict)};
  return Text{badge(Badge::kDiffers, "differs"), {": " + verdict}};
}

/// The lab's exercises: how a student gets each and how an instructor grades it.
void add_exercises(Sheet& sheet, const std::vector<SheetContext::Exercise>& exercises) {
  if (exercises.empty()) return;
  sheet.heading(2, "Exercises");
  std::vector<Text> items;
  for (const auto& e : exercises) {
    items.push_back({strong(e.title), {": "}, code("labbook exercise " + e.id + " --out handout"),
                     {" writes the starter file and the instructions; an instructor grades a class with "},
                     code("labbook grade " + e.id + " SUBMISSIONS --out grades"), {"."}});
    sheet.data["exercises"].push_back({{"id", e.id}, {"title", e.title}});
  }
  sheet.list(std::move(items));
}

/// "Measured here", or for a recording "Measured on H100 (recording)": the reader must know
/// the numbers were not taken on the machine that rendered the sheet.
std::string measured_heading(const Measurement& m, bool recorded) {
  if (!recorded) return "Measured here";
  std::string gpu = m.devices.empty() ? "its GPU" : m.devices.front().name;
  if (gpu.rfind("NVIDIA ", 0) == 0) gpu = gpu.substr(7, gpu.find(' ', 7) - 7);
  return "Measured on " + gpu + " (recording)";
}

/// Numbers sources, in order of first use, for the References section.
class Citations {
 public:
  int number(const std::string& citation) {
    auto it = std::find(list_.begin(), list_.end(), citation);
    if (it != list_.end()) return static_cast<int>(it - list_.begin()) + 1;
    list_.push_back(citation);
    return static_cast<int>(list_.size());
  }
  const std::vector<std::string>& list() const { return list_; }

 private:
  std::vector<std::string> list_;
};

void add_setup(Sheet& sheet, const LabData& lab, const Measurement& m, bool recorded) {
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
    t.rows.push_back({"Device memory", printf1("%.1f GiB", static_cast<double>(d.global_memory_bytes) / (1u << 30)) + ", " +
                                           std::to_string(d.memory_bus_width_bits) + "-bit bus at " +
                                           printf1("%.0f MHz", d.memory_clock_khz / 1e3)});
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
      const std::string unit = quantity_unit(p.quantity);
      t.rows.push_back({"Peak " + quantity_label(p.quantity),
                        format_value(*value, unit) + " = " + printf1("%g", p.per_sm_per_clock) + " per clock per SM (" +
                            p.text + ") x " + std::to_string(d.sm_count) + " SMs x " +
                            printf1("%.0f MHz", d.sm_clock_khz / 1e3) + " (maximum SM clock); " + p.citation});
      facts["peaks"][p.quantity] = *value;
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
      clock_cell += ". The median reads " + printf1("%.1f %%", 100.0 * (median / max_clock - 1)) +
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
  sheet.data["measured_at"] = m.program.started_at;
  sheet.data["metric_replay"] = m.metric_replay.empty() ? "kernel" : m.metric_replay;
  sheet.data["cache_control"] = m.cache_control.empty() ? "none" : m.cache_control;
}

/// Drops the columns from `first` on whose every cell is blank or "—" (a section with no
/// source value, or no baseline figure, has nothing to show there): tables must fit a page.
void drop_empty_columns(Table& t, std::size_t first) {
  if (t.rows.empty()) return;
  const auto blank = [](const Text& c) {
    const std::string p = c.plain();
    return p.empty() || p == " " || p == "—";
  };
  for (std::size_t c = t.header.size(); c-- > first;) {
    if (!std::all_of(t.rows.begin(), t.rows.end(), [&](const auto& row) { return blank(row[c]); })) continue;
    t.header.erase(t.header.begin() + static_cast<long>(c));
    for (auto& row : t.rows) row.erase(row.begin() + static_cast<long>(c));
  }
}

/// "transactions" where the unit says "sectors": the sources' GPUs counted lines or segments.
std::string source_unit(const std::string& unit) {
  const auto at = unit.find("sectors");
  return at == std::string::npos ? unit : unit.substr(0, at) + "transactions" + unit.substr(at + 7);
}

void add_section(Sheet& sheet, const LabData& lab, const Section& section, const Measurement& m,
                 Citations& citations, ModelPredictions& model, const std::string& measured_title) {
  sheet.heading(3, section.title);
  if (!section.text.empty()) sheet.markdown(expand_placeholders(section.text, m, lab.peaks));
  Table t{{"Experiment", "Quantity", "Source (its GPU)", "Model, source's GPU", "Model, this GPU", measured_title,
           "Verdict", "Note"},
          {}};
  if (!section.baseline.empty()) t.header.insert(t.header.begin() + 6, "Of " + section.baseline);
  // A lab without a [model] would show only dashes in the model and verdict columns.
  const auto drop_model_columns = [&](auto& row) {
    if (lab.model) return;
    row.erase(row.begin() + (section.baseline.empty() ? 6 : 7));
    row.erase(row.begin() + 3, row.begin() + 5);
  };
  drop_model_columns(t.header);
  json rows = json::array();
  for (const auto& experiment : section.experiments) {
    for (const auto& quantity : section.quantities) {
      auto ref = std::find_if(lab.references.begin(), lab.references.end(), [&](const ReferenceValue& r) {
        return r.experiment == experiment && r.quantity == quantity;
      });
      // A number the program reported (a payload) has no unit of its own: it counts what the
      // source's value counts ("formats", "cudaError_t").
      std::string unit = quantity_unit(quantity);
      if (unit.empty() && ref != lab.references.end()) unit = ref->unit;
      const QuantityValue measured = range_quantity(m, experiment, quantity, lab.peaks);
      json row = {{"experiment", experiment}, {"quantity", quantity}, {"measured", value_json(measured, unit)}};
      const Prediction p = model.predict(experiment, quantity);
      const std::string verdict = model.verdict(experiment, quantity, measured.value);
      std::vector<Text> cells = {experiment,
                                        quantity,
                                        "—",
                                        p.source_gpu ? format_value(*p.source_gpu, source_unit(unit)) + " (" +
                                                           p.source_architecture + ")"
                                                     : "—",
                                        p.this_gpu ? format_value(*p.this_gpu, unit) : "—",
                                        cell(measured, unit),
                                        model_verdict_text(verdict),
                                        ""};
      if (p.source_gpu) row["model_source_gpu"] = {{"value", *p.source_gpu}, {"architecture", p.source_architecture}};
      if (p.this_gpu) row["model_this_gpu"] = *p.this_gpu;
      row["verdict"] = verdict;
      if (ref != lab.references.end()) {
        const int n = citations.number(ref->citation);
        cells[2] = format_as_printed(ref->value, ref->unit) + " (" + short_gpu(ref->gpu) + ") [" + std::to_string(n) + "]";
        std::string changed = expand_placeholders(ref->explanation, m, lab.peaks);
        if (!ref->note.empty()) changed += (changed.empty() ? "" : " ") + ref->note;
        if (!changed.empty()) {
          t.notes.push_back(Text{authored(changed)});
          cells[7] = "note " + std::to_string(t.notes.size());
        }
        row["source"] = {{"value", ref->value}, {"unit", ref->unit}, {"gpu", ref->gpu},
                         {"build", ref->build}, {"citation", ref->citation}};
        if (measured.value) row["comparison"] = format_comparison(*measured.value, ref->value, unit);
      }
      if (!section.baseline.empty()) {
        const auto& shown = section.baseline_quantities;
        const bool against = shown.empty() || std::find(shown.begin(), shown.end(), quantity) != shown.end();
        const QuantityValue base = range_quantity(m, section.baseline, quantity, lab.peaks);
        Text of = "—";
        if (against && measured.value && base.value && *base.value != 0) {
          of = printf1("%.1f %%", 100.0 * *measured.value / *base.value);
          row["of_baseline"] = *measured.value / *base.value;
        }
        cells.insert(cells.begin() + 6, of);
      }
      drop_model_columns(cells);
      t.rows.push_back(std::move(cells));
      rows.push_back(std::move(row));
    }
  }
  drop_empty_columns(t, 2);
  sheet.table(std::move(t));
  sheet.data["sections"].push_back({{"title", section.title}, {"rows", rows}});
}

/// Rows beyond which a sweep's table folds under a summary line in the HTML.
constexpr std::size_t kLongSweepRows = 12;
/// Columns of measurements beyond which a sweep of several quantities gets a table for each
/// quantity (eleven columns do not fit beside the contents on a 1280 px screen), as a sweep of
/// one quantity always does: its name heads the table once, not in every column.
constexpr std::size_t kWidestSweepTable = 8;

void add_sweep(Sheet& sheet, const LabData& lab, const Sweep& sweep, const Measurement& m) {
  // Parameter values in the order the program ran them, from the ranges of the first group.
  std::vector<std::string> values;
  const std::string prefix = sweep.groups.at(0) + "/" + sweep.parameter + "=";
  for (const auto& r : m.ranges)
    if (r.path.rfind(prefix, 0) == 0) {
      const std::string v = r.path.substr(prefix.size());
      if (std::find(values.begin(), values.end(), v) == values.end()) values.push_back(v);
    }
  sheet.heading(3, sweep.title);
  if (!sweep.text.empty()) sheet.markdown(expand_placeholders(sweep.text, m, lab.peaks));
  // Each (value, group, quantity) once, for the JSON and for the tables.
  std::map<std::string, QuantityValue> measured;   // keyed by value, group and quantity
  const auto key = [](const std::string& v, const std::string& g, const std::string& q) { return v + '\n' + g + '\n' + q; };
  json rows = json::array();
  for (const auto& v : values) {
    json row = {{sweep.parameter, v}};
    for (const auto& g : sweep.groups)
      for (const auto& q : sweep.quantities) {
        const QuantityValue& value = measured[key(v, g, q)] =
            range_quantity(m, g + "/" + sweep.parameter + "=" + v, q, lab.peaks);
        row[g][q] = value_json(value, quantity_unit(q));
      }
    rows.push_back(std::move(row));
  }
  sheet.data["sweeps"].push_back({{"title", sweep.title}, {"rows", rows}});
  if (values.empty()) {
    sheet.markdown("_No sweep ranges were measured._");
    return;
  }
  const bool apart = sweep.quantities.size() == 1 || sweep.groups.size() * sweep.quantities.size() > kWidestSweepTable;
  // One table of every (group, quantity), or one table a quantity whose columns are the groups.
  std::vector<std::vector<std::string>> tables;
  if (apart) {
    for (const auto& q : sweep.quantities) tables.push_back({q});
  } else {
    tables.push_back(sweep.quantities);
  }
  for (const auto& quantities : tables) {
    Table t;
    t.header.push_back(quantity_label(sweep.parameter));
    for (const auto& g : sweep.groups)
      for (const auto& q : quantities) t.header.push_back(apart ? g : g + ": " + quantity_label(q));
    for (const auto& v : values) {
      // A size in bytes reads as one ("4 KiB"), not as its digits.
      char* end = nullptr;
      const double number = std::strtod(v.c_str(), &end);
      std::vector<Text> cells = {sweep.unit == "bytes" && end && *end == '\0' ? format_size(number) : v};
      for (const auto& g : sweep.groups)
        for (const auto& q : quantities)
          cells.push_back(cell(measured.at(key(v, g, q)), quantity_unit(q)));
      t.rows.push_back(std::move(cells));
    }
    // A long sweep folds under one line in the HTML, which names the quantity; its curve, where
    // the lab draws one, stays in view. A short one shows its quantity above it.
    const std::size_t columns = t.header.size() - 1;
    if (t.rows.size() > kLongSweepRows)
      t.folded_under = (apart ? "The sweep's " + quantity_label(quantities.front()) : std::string("The sweep's table")) +
                       ": " + std::to_string(t.rows.size()) + " values of " + sweep.parameter + ", " +
                       std::to_string(columns) + (columns == 1 ? " column" : " columns");
    else if (apart)
      sheet.lines({Text{strong(quantity_label(quantities.front()))}});
    sheet.table(std::move(t));
  }
}

/// What a transaction is in each of the model's columns, a line per architecture: the
/// sources' (as the lab's patterns name them) and this GPU's, from the model's descriptions.
std::string architectures_in_the_model(const ModelSettings& model) {
  std::vector<std::string> sources;
  for (const auto& p : model.patterns)
    if (std::find(sources.begin(), sources.end(), p.source_architecture) == sources.end())
      sources.push_back(p.source_architecture);
  std::string out = "The architectures in the model's columns:\n\n";
  for (const auto& id : sources) out += "- **" + id + "** (a source's GPU): " + warp::architecture(id).description + "\n";
  return out + "- **" + model.this_architecture + "** (this GPU): " + warp::architecture(model.this_architecture).description +
         "\n";
}

void add_claims(Sheet& sheet, const LabData& lab, const Measurement& m, Citations& citations,
                const std::string& measured_title) {
  if (lab.claims.empty()) return;
  sheet.heading(2, "Claims from the sources, checked here");
  sheet.markdown(
      "A claim holds when every repeat of the experiments agrees with it. When the repeats fall on both sides of "
      "what the claim needs, the verdict is *inconclusive*: the difference is within run-to-run noise. A time "
      "measured once on each side has no repeats to show its noise, and its verdict says so.");
  Table t{{"Claim", measured_title, "Verdict"}, {}};
  for (const auto& c : lab.claims) {
    const int n = citations.number(c.citation);
    const ClaimOutcome outcome = judge_claim(c, m, lab.peaks);
    Text verdict{badge(verdict_badge(outcome.verdict), verdict_name(outcome.verdict))};
    if (!outcome.reason.empty()) verdict.spans.push_back({": " + outcome.reason});
    json row = {{"claim", c.text}, {"citation", c.citation}, {"verdict", verdict.plain()}};
    if (outcome.ratio)
      row["ratio"] = {{"value", outcome.ratio->value}, {"low", outcome.ratio->low}, {"high", outcome.ratio->high}};
    sheet.data["claims"].push_back(row);
    t.rows.push_back({c.text + " [" + std::to_string(n) + "]", outcome.measured, verdict});
  }
  sheet.table(std::move(t));
}

/// One warp of each figure experiment in one picture: the source's architecture above, this
/// GPU's below, on one memory axis.
void add_warp_figures(Sheet& sheet, const LabData& lab, ModelPredictions& model) {
  if (!lab.model || lab.model->figures.empty()) return;
  sheet.heading(3, "One warp, then and now");
  std::string text =
      "The first warp of each kernel, as the model sees it: the memory instruction the source's GPU served least "
      "efficiently, in one picture per kernel with the source's GPU above (then) and this one below (now). Lanes 0 "
      "to 31 on top; memory below, with byte offsets from the first 128-byte line drawn, a heavy line every 128 "
      "bytes and a light tick every 32-byte sector; in blue the bytes the lanes load or store, and one coloured band "
      "per transaction. Lines no lane touches are left out where the warp's addresses lie far apart.\n\n";
  for (const auto& experiment : lab.model->figures) {
    const auto access = model.telling_access(experiment);
    const ModelPattern* pattern = lab.model->pattern_for(experiment);
    if (!access || !pattern) continue;
    std::vector<WarpPanel> panels;
    if (pattern->source_architecture == lab.model->this_architecture)
      panels.push_back({"then and now", warp::architecture(pattern->source_architecture)});
    else
      panels = {{"then", warp::architecture(pattern->source_architecture)}, {"now", warp::architecture(lab.model->this_architecture)}};
    std::string file = lab.id + ".warp." + experiment + ".svg";
    std::replace(file.begin(), file.end(), '/', '-');
    std::replace(file.begin(), file.end(), '=', '-');
    sheet.figures.push_back({file, warp_figure_svg(*access, panels, experiment)});
    text += "![" + warp_figure_description(*access, panels, experiment) + "](" + file + ")\n\n";
  }
  sheet.markdown(text);
}

/// Each [[chart]]: the source's value and the measured one per experiment, as an SVG figure.
void add_charts(Sheet& sheet, const LabData& lab, const Measurement& m) {
  for (std::size_t i = 0; i < lab.charts.size(); ++i) {
    const Chart& c = lab.charts[i];
    std::vector<Bar> bars;
    std::string source_gpu;
    for (const auto& e : c.experiments) {
      Bar bar{e, std::nullopt, range_quantity(m, e, c.quantity, lab.peaks).value};
      for (const auto& r : lab.references)
        if (r.experiment == e && r.quantity == c.quantity) {
          bar.source = r.value;
          if (source_gpu.empty()) source_gpu = short_gpu(r.gpu);
        }
      bars.push_back(std::move(bar));
    }
    const std::string file = lab.id + ".chart-" + std::to_string(i + 1) + ".svg";
    sheet.figures.push_back({file, bar_chart_svg(c.title, bars, quantity_unit(c.quantity),
                                                 "source" + (source_gpu.empty() ? "" : " (" + source_gpu + ")"))});
    sheet.heading(3, c.title);
    sheet.markdown((c.text.empty() ? "" : c.text + "\n\n") + "![" + c.title + "](" + file + ")");
  }
}

/// What the warp model predicts per request for `experiment`'s kernel on this GPU, as one
/// sentence ("" where it predicts none of it): what each line's measured numbers stand beside.
std::string model_per_request(ModelPredictions& model, const std::string& experiment) {
  std::vector<std::string> parts;
  const auto add = [&](const char* quantity, const std::string& what) {
    // 0 per request: the kernel makes no such request.
    if (const auto v = model.predict(experiment, quantity).this_gpu; v && *v > 0) parts.push_back(what + " " + two_decimals(*v));
  };
  add("gld_transactions_per_request", "sectors per load request");
  add("gst_transactions_per_request", "sectors per store request");
  add("shared_load_transactions_per_request", "shared wavefronts per load request");
  add("shared_store_transactions_per_request", "shared wavefronts per store request");
  if (parts.empty()) return "";
  std::string sentence = "The warp model, for this kernel's launch on this GPU (the whole kernel, each access kind "
                         "averaged over its instructions): ";
  for (std::size_t i = 0; i < parts.size(); ++i) sentence += (i ? "; " : "") + parts[i];
  return sentence + ".";
}

/// The experiment's kernels line by line ([sheet] source_lines), from the source run's
/// per-instruction counts, beside the model's prediction per request; says so where the
/// measurement has none. CUPTI counts a kernel's launches together (Kernel::sass): a kernel
/// that also ran in another experiment is not shown, since its lines would mix the two. The
/// lines shown go to `data` too ("source_lines": the launches they sum, each line's numbers).
void add_source_lines_of(Sheet& sheet, const Measurement& m, const std::string& experiment, ModelPredictions& model,
                         json& data) {
  std::vector<SassInstruction> instructions;
  std::vector<std::string> mixed;
  std::size_t launches = 0;   // that the shown counts sum
  for (const auto& k : m.kernels) {
    if (k.sass.empty()) continue;
    const auto covered = sass_covered(m.kernels, k);
    const auto here = std::count_if(covered.begin(), covered.end(), [&](const Kernel* c) { return c->range == experiment; });
    if (here == 0) continue;
    if (static_cast<std::size_t>(here) == covered.size()) {
      instructions.insert(instructions.end(), k.sass.begin(), k.sass.end());
      launches += covered.size();
    } else mixed.push_back("`" + kernel_short_name(k.name) + "` (" + std::to_string(here) + " of its " +
                         std::to_string(covered.size()) + " launches here)");
  }
  if (!mixed.empty())
    sheet.markdown("Lines that move memory: not shown for " + join(mixed, ", ") +
                   ": CUPTI counts a kernel's instructions once per run, summed over all its launches, and this "
                   "kernel also ran in other experiments.");
  if (instructions.empty()) {
    if (mixed.empty())
      sheet.markdown("Lines that move memory: this measurement has no source run (`labbook run` makes one for this "
                     "lab; a recording made before it does not hold one).");
    return;
  }
  const SourceProfile profile = source_profile(instructions);
  if (profile.lines.empty()) return;
  sheet.markdown("Lines that move memory, worst first (sectors per request against the ideal, shared wavefronts "
                 "against the ideal, local sectors), summed over " +
                 (launches == 1 ? std::string("the experiment's launch") : "the experiment's " + std::to_string(launches) + " launches") +
                 " (the chart shows one launch's medians):");
  sheet.table(source_lines_table(profile, 5));
  data["source_lines"] = {{"launches", launches}, {"line_info", profile.line_info}, {"lines", source_lines_json(profile)}};
  if (const std::string predicted = model_per_request(model, experiment); !predicted.empty()) sheet.markdown(predicted);
}

/// Each [[memory_chart]]: the experiment's traffic from the SM to DRAM as a picture, its
/// numbers in the picture's text alternative and in the sheet's data.
void add_memory_charts(Sheet& sheet, const LabData& lab, const Measurement& m, ModelPredictions& model) {
  if (lab.memory_charts.empty()) return;
  sheet.heading(3, "Memory charts");
  sheet.markdown(
      "Where the key kernels' memory traffic went, after Nsight Compute's memory chart: requests (warp "
      "instructions) and 32-byte sectors from the threads to L1, L1's hit rate, sectors from L1 to L2, L2's hit "
      "rate, and the bytes L2 read from and wrote to DRAM; shared memory's instructions, wavefronts and bank "
      "conflicts below. Values are medians over the experiment's launches; a counter this run did not collect "
      "reads \"not measured\".");
  for (std::size_t i = 0; i < lab.memory_charts.size(); ++i) {
    const MemoryChartSpec& spec = lab.memory_charts[i];
    const MemoryFlow flow = range_memory_flow(m, spec.experiment);
    const std::string file = lab.id + ".memory-" + std::to_string(i + 1) + ".svg";
    sheet.figures.push_back({file, memory_chart_svg(flow, spec.experiment + ": medians over its launches")});
    const std::string alt = "Memory chart of " + spec.experiment + ". " + memory_flow_description(flow);
    sheet.heading(4, "Memory chart: " + escape_inline(spec.experiment));
    sheet.markdown((spec.caption.empty() ? "" : expand_placeholders(spec.caption, m, lab.peaks) + "\n\n") + "![" +
                   escape_inline(alt) + "](" + file + ")");
    json data = {{"experiment", spec.experiment}, {"figure", file}, {"measured", memory_flow_json(flow)}};
    if (const std::string caption = memory_flow_caption(flow); !caption.empty()) data["caption"] = caption;
    if (lab.source_lines) add_source_lines_of(sheet, m, spec.experiment, model, data);
    sheet.data["memory_charts"].push_back(std::move(data));
  }
}

/// Each [[roofline]]: its experiments on this GPU's roofs, the lab's [[peak]]s as ceilings.
void add_rooflines(Sheet& sheet, const LabData& lab, const Measurement& m) {
  for (std::size_t i = 0; i < lab.rooflines.size(); ++i) {
    const RooflineSpec& spec = lab.rooflines[i];
    Roofline roofline = roofline_for(m, lab.peaks);
    for (const auto& e : spec.experiments) roofline.kernels.push_back(range_roofline_kernel(m, e));
    const std::string file = lab.id + ".roofline-" + std::to_string(i + 1) + ".svg";
    const std::string l2_note = l2_roof_note(roofline);
    sheet.figures.push_back({file, roofline_svg(roofline, spec.title, "rl" + std::to_string(i + 1))});
    sheet.heading(3, "Roofline: " + spec.title);
    sheet.markdown("The roofline: each kernel's arithmetic intensity (its FLOPs per byte of DRAM traffic) against "
                   "the FLOP rate it reached, medians over the experiment's launches. The slope is the DRAM bandwidth, "
                   "the flat lines the FMA lanes' peaks: a kernel left of where they meet can go no faster than memory "
                   "feeds it. Kernels without FLOPs are listed below the plot with their DRAM bandwidth." +
                   (l2_note.empty() ? "" : " " + l2_note) + "\n\n" +
                   (spec.caption.empty() ? "" : expand_placeholders(spec.caption, m, lab.peaks) + "\n\n") + "![" +
                   escape_inline(roofline_description(roofline)) + "](" + file + ")");
    json data = roofline_json(roofline);
    data["title"] = spec.title, data["figure"] = file;
    sheet.data["rooflines"].push_back(std::move(data));
  }
}

/// The values of `parameter` in ranges "<group>/<parameter>=<value>", in the order they ran.
std::vector<std::string> sweep_values(const Measurement& m, const std::string& group, const std::string& parameter) {
  std::vector<std::string> values;
  const std::string prefix = group + "/" + parameter + "=";
  for (const auto& r : m.ranges)
    if (r.path.rfind(prefix, 0) == 0) {
      const std::string v = r.path.substr(prefix.size());
      if (v.find('/') == std::string::npos && std::find(values.begin(), values.end(), v) == values.end()) values.push_back(v);
    }
  return values;
}

/// A parameter value as a number: "4096", "0.5", or a size with a binary unit ("16KiB", "2GiB").
std::optional<double> as_number(const std::string& text) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || end == text.c_str()) return std::nullopt;
  const std::string unit = end;
  if (unit.empty() || unit == "B") return v;
  if (unit == "KiB") return v * 1024.0;
  if (unit == "MiB") return v * 1024.0 * 1024.0;
  if (unit == "GiB") return v * 1024.0 * 1024.0 * 1024.0;
  return std::nullopt;
}

/// Each [[curve]]: one line per group over the parameter's values, the sources' values as
/// markers (a value for one parameter value) or dashed levels (a value for the whole group).
void add_curves(Sheet& sheet, const LabData& lab, const Measurement& m) {
  for (std::size_t i = 0; i < lab.curves.size(); ++i) {
    const Curve& c = lab.curves[i];
    std::vector<CurveLine> lines;
    std::vector<CurveLevel> levels;
    json data = {{"title", c.title}, {"quantity", c.quantity}, {"parameter", c.parameter}, {"groups", json::object()}};
    for (const auto& g : c.groups) {
      CurveLine line{g, {}, {}};
      for (const auto& v : sweep_values(m, g, c.parameter)) {
        const auto x = as_number(v);
        const QuantityValue value = range_quantity(m, g + "/" + c.parameter + "=" + v, c.quantity, lab.peaks);
        if (x && value.value) line.measured.push_back({*x, *value.value});
        data["groups"][g].push_back({{c.parameter, v}, {"measured", value_json(value, quantity_unit(c.quantity))}});
      }
      for (const auto& r : lab.references) {
        if (r.quantity != c.quantity) continue;
        if (r.experiment == g) levels.push_back({r.experiment + " (" + short_gpu(r.gpu) + ")", r.value});
        const std::string prefix = g + "/" + c.parameter + "=";
        if (r.experiment.rfind(prefix, 0) == 0)
          if (auto x = as_number(r.experiment.substr(prefix.size()))) line.source.push_back({*x, r.value});
      }
      lines.push_back(std::move(line));
    }
    const std::string file = lab.id + ".curve-" + std::to_string(i + 1) + ".svg";
    const CurveAxes axes{c.parameter, c.x_unit, quantity_label(c.quantity), quantity_unit(c.quantity), c.log_x, c.log_y};
    sheet.figures.push_back({file, line_chart_svg(c.title, lines, levels, axes)});
    sheet.heading(3, c.title);
    sheet.markdown((c.text.empty() ? "" : c.text + "\n\n") + "![" + c.title + "](" + file + ")");
    sheet.data["curves"].push_back(std::move(data));
  }
}

/// Each [[activity_table]]: nvprof's GPU-activities rows for the range, then the source's.
void add_activity_tables(Sheet& sheet, const LabData& lab, const Measurement& m, Citations& citations) {
  struct Row {
    const char* prefix;
    const char* name;
  };
  const Row rows[] = {{"kernels_", "kernels"}, {"memcpy_htod_", "[CUDA memcpy HtoD]"}, {"memcpy_dtoh_", "[CUDA memcpy DtoH]"}};
  const char* stats[] = {"time_pct", "time", "calls", "avg", "min", "max"};
  for (const auto& spec : lab.activity_tables) {
    sheet.heading(3, spec.title);
    if (!spec.text.empty()) sheet.markdown(spec.text);
    for (const auto& e : spec.experiments) {
      Table t{{"Range", "Time(%)", "Time", "Calls", "Avg", "Min", "Max", "Name"}, {}};
      for (const auto& r : gpu_activities_in(m, e))
        t.rows.push_back({e, printf1("%.2f%%", r.share_pct), nvprof_duration(static_cast<double>(r.total_ns)),
                          std::to_string(r.calls), nvprof_duration(r.average_ns()),
                          nvprof_duration(static_cast<double>(r.min_ns)), nvprof_duration(static_cast<double>(r.max_ns)),
                          Text{code(r.name)}});
      if (t.rows.empty()) t.rows.push_back({e, "—", "—", "—", "—", "—", "—", "no GPU activity measured"});
      for (const auto& row : rows) {
        std::vector<Text> cells = {"source", "—", "—", "—", "—", "—", "—", ""};
        std::string citation;
        for (std::size_t s = 0; s < 6; ++s)
          for (const auto& r : lab.references)
            if (r.experiment == e && r.quantity == std::string(row.prefix) + stats[s]) {
              cells[s + 1] = s == 0 ? printf1("%.2f%%", r.value) : s == 2 ? printf1("%.0f", r.value) : nvprof_duration(r.value);
              citation = r.citation;
            }
        if (citation.empty()) continue;
        cells[0] = "source [" + std::to_string(citations.number(citation)) + "]";
        cells[7] = row.name;
        t.rows.push_back(std::move(cells));
      }
      sheet.table(std::move(t));
    }
  }
}

/// Each [[timeline]]: per range, its kernels and copies stream by stream, on one time scale.
void add_timelines(Sheet& sheet, const LabData& lab, const Measurement& m) {
  for (std::size_t i = 0; i < lab.timelines.size(); ++i) {
    const TimelineSpec& spec = lab.timelines[i];
    std::vector<std::uint64_t> spans;
    for (const auto& e : spec.experiments) spans.push_back(range_activity_span_ns(m, e));
    const std::uint64_t span = *std::max_element(spans.begin(), spans.end());   // one scale for all
    std::string text = (spec.text.empty() ? "" : spec.text + "\n\n") +
                       "One lane per stream, named at its left: kernels green, copies orange, memsets purple, each named "
                       "inside when it is wide enough (open a picture on its own and hover a box for its name and duration). "
                       "Time runs from each range's first kernel or copy, on one scale for all the pictures below.\n\n";
    json data = {{"title", spec.title}, {"experiments", json::array()}};
    for (std::size_t j = 0; j < spec.experiments.size(); ++j) {
      const std::string& e = spec.experiments[j];
      const std::uint64_t own = spans[j];
      data["experiments"].push_back({{"experiment", e}, {"span_ns", own}});
      text += "`" + e + "`\n\n";
      if (own == 0) {
        text += "_No kernel or copy was measured in this range._\n\n";
        continue;
      }
      const std::string file = lab.id + ".timeline-" + std::to_string(i + 1) + "-" + std::to_string(j + 1) + ".svg";
      sheet.figures.push_back({file, range_timeline_svg(m, e, span, spec.streams)});
      text += "[![Timeline of " + e + "](" + file + ")](" + file + ")\n\n";   // an <img> shows no tooltips
    }
    sheet.heading(3, spec.title);
    sheet.markdown(text);
    sheet.data["timelines"].push_back(std::move(data));
  }
}

Text issue_advice(const Issue& issue) { return {strong(issue.code), {": " + issue.message}}; }

}  // namespace

std::string expand_placeholders(const std::string& text, const Measurement& m, const std::vector<ArithmeticPeak>& peaks) {
  static const std::regex placeholder(R"(\{([^{}:]+):([^{}:]+)\})");
  std::string out;
  std::sregex_iterator it(text.begin(), text.end(), placeholder), end;
  std::size_t last = 0;
  for (; it != end; ++it) {
    const auto& match = *it;
    out += text.substr(last, static_cast<std::size_t>(match.position()) - last);
    const std::string quantity = match[2];
    const QuantityValue v = range_quantity(m, match[1], quantity, peaks);
    out += v.value ? format_value(*v.value, quantity_unit(quantity)) : "(not measured)";
    last = static_cast<std::size_t>(match.position() + match.length());
  }
  return out + text.substr(last);
}

Sheet build_sheet(const LabData& lab, const Measurement& m, const SheetContext& context) {
  Sheet sheet;
  sheet.title = lab.title;
  sheet.data = {{"lab", lab.id}, {"title", lab.title}, {"schema_version", 1}, {"sections", json::array()},
                {"sweeps", json::array()}, {"claims", json::array()}, {"recorded", context.recorded}};
  Citations citations;

  sheet.heading(1, lab.title);
  if (!context.note.empty()) {
    sheet.callout({strong("Note:"), {" " + context.note}});
    sheet.data["note"] = context.note;
  }
  add_setup(sheet, lab, m, context.recorded);
  const std::string measured_title = measured_heading(m, context.recorded);
  sheet.heading(2, "Goals");
  sheet.markdown(lab.prose.goals);
  sheet.heading(2, "Background");
  sheet.markdown(lab.prose.background);

  sheet.heading(2, "Results");
  ModelPredictions model(lab, m);
  if (lab.model)
    sheet.markdown(
        "Each row: the value a source printed (its GPU, citation in brackets); what the warp-level model predicts for "
        "the source's GPU and for this one, from the addresses each warp of the kernel touches; the measured value; "
        "and the verdict, measured against the model for this GPU (\"as predicted\" within " +
        format_value(lab.model->tolerance, "") + " percentage points for percentages, " +
        format_value(lab.model->tolerance, "") + " % otherwise). " + architectures_in_the_model(*lab.model));
  else
    sheet.markdown("Each row: the value a source printed (its GPU, citation in brackets), the measured value, and "
                   "what changed between the two.");
  for (const auto& section : lab.sections) add_section(sheet, lab, section, m, citations, model, measured_title);
  add_warp_figures(sheet, lab, model);
  add_memory_charts(sheet, lab, m, model);
  add_rooflines(sheet, lab, m);
  for (const auto& sweep : lab.sweeps) add_sweep(sheet, lab, sweep, m);
  if (lab.resources) add_resource_section(sheet, *lab.resources, lab.folder(), m);
  add_charts(sheet, lab, m);
  add_curves(sheet, lab, m);
  add_activity_tables(sheet, lab, m, citations);
  add_timelines(sheet, lab, m);
  add_claims(sheet, lab, m, citations, measured_title);

  if (!lab.not_reproduced.empty()) {
    sheet.heading(2, "Not reproduced here");
    sheet.markdown("Experiments of the sources this lab does not run, and why.");
    Table t{{"The source's experiment", "Why not here"}, {}};
    for (const auto& n : lab.not_reproduced)
      t.rows.push_back({Text{authored(n.experiment), {" [" + std::to_string(citations.number(n.citation)) + "]"}},
                        Text{authored(n.reason)}});
    sheet.table(std::move(t));
    for (const auto& n : lab.not_reproduced)
      sheet.data["not_reproduced"].push_back({{"experiment", n.experiment}, {"citation", n.citation}, {"reason", n.reason}});
  }

  sheet.heading(2, "What to look at");
  sheet.markdown(lab.prose.look_at);
  sheet.heading(2, "Questions");
  std::string questions;
  for (std::size_t i = 0; i < lab.prose.questions.size(); ++i)
    questions += std::to_string(i + 1) + ". " + lab.prose.questions[i] + "\n";
  sheet.markdown(questions);
  add_exercises(sheet, context.exercises);

  sheet.heading(2, "Collection notes");
  std::vector<Text> notes;
  for (const auto& issue : m.issues) notes.push_back(issue_advice(issue));
  if (notes.empty()) sheet.markdown("Every requested metric was collected; no records were lost.");
  else sheet.list(std::move(notes));
  sheet.data["issues"] = json::array();
  for (const auto& issue : m.issues) sheet.data["issues"].push_back({{"code", issue.code}, {"message", issue.message}});

  sheet.heading(2, "References");
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
  refs += "\nGPU and build of each source value:\n\n";
  for (const auto& r : lab.references)
    refs += "- " + r.experiment + " " + r.quantity + ": " + r.gpu + (r.build.empty() ? "" : "; " + r.build) + "\n";
  sheet.markdown(refs);

  sheet.heading(2, "How this was measured");
  std::string how =
      "labbook's collector (CUPTI, injected with `CUDA_INJECTION64_PATH`) ran the lab program: a trace run "
      "(Activity API: kernel times, copies, API calls; NVTX ranges through CUPTI's NVTX callbacks)" +
      std::string(m.metrics_requested.empty()
                      ? ", and nothing else: the lab asks for no metrics"
                      : ", then metrics runs (Range Profiler, one range per kernel; see \"Metrics collected by\" above)") +
      ". Values are medians over the launches in each NVTX range. Quantities:\n\n";
  std::vector<std::string> used;
  for (const auto& s : lab.sections)
    for (const auto& q : s.quantities)
      if (std::find(used.begin(), used.end(), q) == used.end()) used.push_back(q);
  for (const auto& q : used) how += "- `" + q + "`: " + quantity_description(q) + "\n";
  sheet.markdown(how);
  return sheet;
}

}  // namespace labbook::report
