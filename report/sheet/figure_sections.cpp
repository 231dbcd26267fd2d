#include "figure_sections.h"

#include <algorithm>
#include <cstdlib>
#include <optional>

#include "activity_summary.h"
#include "architecture.h"
#include "bar_chart.h"
#include "format.h"
#include "labbook/model/text.h"
#include "line_chart.h"
#include "markdown_writer.h"
#include "memory_chart.h"
#include "placeholders.h"
#include "quantities.h"
#include "results_table.h"
#include "roofline_chart.h"
#include "setup_section.h"
#include "source_lines_table.h"
#include "timeline_svg.h"
#include "warp_figure.h"

namespace labbook::report {

using nlohmann::json;

/// One warp of each figure experiment in one picture: the source's architecture above, this
/// GPU's below, on one memory axis.
void add_warp_figures(Sheet& sheet, const LabData& lab, ModelPredictions& model) {
  if (!lab.model || lab.model->figures.empty()) return;
  std::string text =
      "The first warp of each kernel, as the model sees it: the memory instruction the source's GPU served least "
      "efficiently, in one picture per kernel with the source's GPU above (then) and this one below (now). Lanes 0 "
      "to 31 on top; memory below, with byte offsets from the first 128-byte line drawn, a heavy line every 128 "
      "bytes and a light tick every 32-byte sector; in blue the bytes the lanes load or store, and one coloured band "
      "per transaction. Lines no lane touches are left out where the warp's addresses lie far apart.\n\n";
  std::vector<std::pair<std::string, std::string>> pictures;   // experiment, Markdown image
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
    sheet.figures.push_back({file, warp_figure_svg(*access, panels, experiment), warp_figure_description(*access, panels, experiment)});
    pictures.push_back({experiment, "![" + escape_inline(warp_figure_description(*access, panels, experiment)) + "](" + file + ")"});
  }
  if (pictures.empty()) return;
  // The first picture is the sheet's key picture, under its summary: here all wait in a fold.
  sheet.heading(3, "One warp, then and now");
  sheet.markdown(text + "The first, " + escape_inline(pictures.front().first) + ", is the picture under the summary.");
  Sheet all;
  std::vector<std::string> names;
  for (const auto& [experiment, image] : pictures) {
    all.markdown(image);
    names.push_back(experiment);
  }
  sheet.fold("The warps of " + join(names, ", "), std::move(all));
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
    sheet.figures.push_back({file, bar_chart_svg(c.title, bars, c.quantity.unit(),
                                                 "source" + (source_gpu.empty() ? "" : " (" + source_gpu + ")")), c.title});
    sheet.heading(3, c.title);
    if (!c.text.empty()) sheet.markdown(c.text);
    sheet.picture(c.title, "![" + c.title + "](" + file + ")");
  }
}

namespace {

/// What the warp model predicts per request for `experiment`'s kernel on this GPU, as one
/// sentence ("" where it predicts none of it): what each line's measured numbers stand beside.
std::string model_per_request(ModelPredictions& model, const std::string& experiment) {
  std::vector<std::string> parts;
  const auto add = [&](const char* quantity, const std::string& what) {
    // 0 per request: the kernel makes no such request.
    if (const auto v = model.predict(experiment, Quantity::named(quantity)).this_gpu; v && *v > 0) parts.push_back(what + " " + two_decimals(*v));
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

/// An experiment's per-instruction counts in one measurement: the kernels counted in it
/// alone, and those whose counts it shares with other experiments.
struct ExperimentLines {
  std::vector<SassInstruction> instructions;
  std::vector<std::string> mixed;   ///< "`kernel` (2 of its 6 launches here)"
  std::size_t launches = 0;         ///< that `instructions` sum
};

ExperimentLines experiment_lines(const Measurement& m, const std::string& experiment) {
  ExperimentLines lines;
  for (const auto& k : m.kernels) {
    if (k.sass.empty()) continue;
    const auto covered = sass_covered(m.kernels, k);
    const auto here = std::count_if(covered.begin(), covered.end(), [&](const Kernel* c) { return c->range == experiment; });
    if (here == 0) continue;
    if (static_cast<std::size_t>(here) == covered.size()) {
      lines.instructions.insert(lines.instructions.end(), k.sass.begin(), k.sass.end());
      lines.launches += covered.size();
    } else lines.mixed.push_back("`" + kernel_short_name(k.name) + "` (" + std::to_string(here) + " of its " +
                                 std::to_string(covered.size()) + " launches here)");
  }
  return lines;
}

/// The experiment's kernels line by line ([[memory_chart]] source_lines), from the source run's
/// per-instruction counts, beside the model's prediction per request. A measurement without a
/// source run borrows the lines of the first recording beside it that has one, and says so:
/// the lines are the kernel's, the same on every GPU of the family. CUPTI counts a kernel's
/// launches together (Kernel::sass): a kernel that also ran in another experiment is not
/// shown, since its lines would mix the two. The lines shown go to `data` too.
void add_source_lines_of(Sheet& sheet, const Measurement& m, const std::vector<Measurement>& beside,
                         const std::string& experiment, ModelPredictions& model, json& data) {
  ExperimentLines lines = experiment_lines(m, experiment);
  std::string borrowed;   // the GPU whose recording the lines come from, when not this one's
  for (std::size_t i = 0; i < beside.size() && lines.instructions.empty() && lines.mixed.empty(); ++i) {
    lines = experiment_lines(beside[i], experiment);
    if (!lines.instructions.empty() || !lines.mixed.empty()) borrowed = gpu_short_name(beside[i]);
  }
  if (!lines.mixed.empty())
    sheet.markdown("Lines that move memory: not shown for " + join(lines.mixed, ", ") +
                   (borrowed.empty() ? "" : " on the " + borrowed) + ": CUPTI counts a kernel's instructions once per run, summed over all its launches, and this "
                   "kernel also ran in other experiments.");
  if (lines.instructions.empty()) {
    if (lines.mixed.empty())
      sheet.markdown("Lines that move memory: this measurement has no source run (`labbook run` makes one for this "
                     "lab; a recording made before it does not hold one).");
    return;
  }
  const SourceProfile profile = source_profile(lines.instructions);
  if (profile.lines.empty()) return;
  const std::size_t launches = lines.launches;
  sheet.markdown("Lines that move memory, worst first (sectors per request against the ideal, shared wavefronts "
                 "against the ideal, local sectors), summed over " +
                 (launches == 1 ? std::string("the experiment's launch") : "the experiment's " + std::to_string(launches) + " launches") +
                 (borrowed.empty() ? std::string(" (the chart shows one launch's medians)")
                                   : " on the " + borrowed + " (this measurement has no source run; the counts per "
                                     "request are the kernel's, the same on every GPU of the family)") +
                 ":");
  sheet.table(source_lines_table(profile, 5));
  data["source_lines"] = {{"launches", launches}, {"line_info", profile.line_info}, {"lines", source_lines_json(profile)}};
  if (!borrowed.empty()) data["source_lines"]["gpu"] = borrowed;
  if (const std::string predicted = model_per_request(model, experiment); !predicted.empty()) sheet.markdown(predicted);
}

}  // namespace

/// Each [[memory_chart]]: the experiment's traffic from the SM to DRAM as a picture, its
/// numbers in the picture's text alternative and in the sheet's data.
void add_memory_charts(Sheet& sheet, const LabData& lab, const Measurement& m, const std::vector<Measurement>& beside,
                       ModelPredictions& model) {
  if (lab.memory_charts.empty()) return;
  sheet.heading(3, "Memory charts");
  Sheet reading;
  reading.markdown(
      "Where the key kernels' memory traffic went, after Nsight Compute's memory chart: requests (warp "
      "instructions) and 32-byte sectors from the threads to L1, L1's hit rate, sectors from L1 to L2, L2's hit "
      "rate, and the bytes L2 read from and wrote to DRAM; shared memory's instructions, wavefronts and bank "
      "conflicts below. Values are medians over the experiment's launches; a counter this run did not collect "
      "reads \"not measured\".");
  sheet.fold("How to read a memory chart", std::move(reading));
  // The first chart's caption and source lines stay in view; the other charts fold under one line.
  Sheet others;
  std::vector<std::string> names;
  for (std::size_t i = 0; i < lab.memory_charts.size(); ++i) {
    const MemoryChartSpec& spec = lab.memory_charts[i];
    Sheet& sheet_of = i == 0 ? sheet : others;
    if (i > 0) names.push_back(spec.experiment);
    const MemoryFlow flow = range_memory_flow(m, spec.experiment);
    const std::string file = lab.id + ".memory-" + std::to_string(i + 1) + ".svg";
    const std::string alt = "Memory chart of " + spec.experiment + ". " + memory_flow_description(flow);
    sheet.figures.push_back({file, memory_chart_svg(flow, spec.experiment + ": medians over its launches"), alt});
    sheet_of.heading(4, "Memory chart: " + escape_inline(spec.experiment));
    if (!spec.caption.empty()) sheet_of.markdown(expand_placeholders(spec.caption, m, lab.peaks));
    const std::string image = "![" + escape_inline(alt) + "](" + file + ")";
    if (i == 0) sheet.picture("memory chart of " + spec.experiment, image);
    else others.markdown(image);
    json data = {{"experiment", spec.experiment}, {"figure", file}, {"measured", memory_flow_json(flow)}};
    if (const std::string caption = memory_flow_caption(flow); !caption.empty()) data["caption"] = caption;
    if (spec.source_lines) add_source_lines_of(sheet_of, m, beside, spec.experiment, model, data);
    sheet.data["memory_charts"].push_back(std::move(data));
  }
  if (!names.empty()) sheet.fold("The memory charts of " + join(names, ", "), std::move(others));
}

/// Each [[roofline]]: its experiments on this GPU's roofs, the lab's [[peak]]s as ceilings.
void add_rooflines(Sheet& sheet, const LabData& lab, const Measurement& m) {
  for (std::size_t i = 0; i < lab.rooflines.size(); ++i) {
    const RooflineSpec& spec = lab.rooflines[i];
    Roofline roofline = roofline_for(m, lab.peaks);
    for (const auto& e : spec.experiments) roofline.kernels.push_back(range_roofline_kernel(m, e));
    const std::string file = lab.id + ".roofline-" + std::to_string(i + 1) + ".svg";
    const std::string l2_note = l2_roof_note(roofline);
    sheet.figures.push_back({file, roofline_svg(roofline, spec.title, "rl" + std::to_string(i + 1)), roofline_description(roofline)});
    sheet.heading(3, "Roofline: " + spec.title);
    // How to read any roofline waits in a fold; what this one shows stays in view.
    Sheet reading;
    reading.markdown("The roofline: each kernel's arithmetic intensity (its FLOPs per byte of DRAM traffic) against "
                     "the FLOP rate it reached, medians over the experiment's launches. The slope is the DRAM bandwidth, "
                     "the flat lines the FMA lanes' peaks: a kernel left of where they meet can go no faster than memory "
                     "feeds it. Kernels without FLOPs are listed below the plot with their DRAM bandwidth." +
                     (l2_note.empty() ? "" : " " + l2_note));
    sheet.fold("How to read a roofline", std::move(reading));
    if (!spec.caption.empty()) sheet.markdown(expand_placeholders(spec.caption, m, lab.peaks));
    sheet.picture("the roofline", "![" + escape_inline(roofline_description(roofline)) + "](" + file + ")");
    json data = roofline_json(roofline);
    data["title"] = spec.title, data["figure"] = file;
    sheet.data["rooflines"].push_back(std::move(data));
  }
}

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

namespace {

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

}  // namespace

/// Each [[curve]]: one line per group over the parameter's values, the sources' values as
/// markers (a value for one parameter value) or dashed levels (a value for the whole group).
void add_curves(Sheet& sheet, const LabData& lab, const Measurement& m) {
  for (std::size_t i = 0; i < lab.curves.size(); ++i) {
    const Curve& c = lab.curves[i];
    std::vector<CurveLine> lines;
    std::vector<CurveLevel> levels;
    json data = {{"title", c.title}, {"quantity", c.quantity.name()}, {"parameter", c.parameter}, {"groups", json::object()}};
    for (const auto& g : c.groups) {
      CurveLine line{g, {}, {}};
      for (const auto& v : sweep_values(m, g, c.parameter)) {
        const auto x = as_number(v);
        const QuantityValue value = range_quantity(m, g + "/" + c.parameter + "=" + v, c.quantity, lab.peaks);
        if (x && value.value) line.measured.push_back({*x, *value.value});
        data["groups"][g].push_back({{c.parameter, v}, {"measured", value_json(value, c.quantity.unit())}});
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
    const CurveAxes axes{c.parameter, c.x_unit, c.quantity.label(), c.quantity.unit(), c.log_x, c.log_y};
    sheet.figures.push_back({file, line_chart_svg(c.title, lines, levels, axes), c.title});
    sheet.heading(3, c.title);
    if (!c.text.empty()) sheet.markdown(c.text);
    sheet.picture(c.title, "![" + c.title + "](" + file + ")");
    sheet.data["curves"].push_back(std::move(data));
  }
}

/// Each [[activity_table]]: nvprof's GPU-activities rows for the range, then the source's.
void add_activity_tables(Sheet& sheet, const LabData& lab, const Measurement& m, Citations& citations) {
  // nvprof's columns Time(%), Time, Calls, Avg, Min and Max of each row, as quantities.
  using Q = QuantityId;
  struct Row {
    const char* name;
    QuantityId columns[6];
  };
  const Row rows[] = {
      {"kernels", {Q::kKernelsTimePct, Q::kKernelsTime, Q::kKernelsCalls, Q::kKernelsAvg, Q::kKernelsMin, Q::kKernelsMax}},
      {"[CUDA memcpy HtoD]", {Q::kHtodTimePct, Q::kHtodTime, Q::kHtodCalls, Q::kHtodAvg, Q::kHtodMin, Q::kHtodMax}},
      {"[CUDA memcpy DtoH]", {Q::kDtohTimePct, Q::kDtohTime, Q::kDtohCalls, Q::kDtohAvg, Q::kDtohMin, Q::kDtohMax}}};
  for (const auto& spec : lab.activity_tables) {
    sheet.heading(3, spec.title);
    if (!spec.text.empty()) sheet.markdown(spec.text);
    // The first range's listing stays in view; the others fold under one line that names them.
    Sheet others;
    std::vector<std::string> names;
    for (std::size_t i = 0; i < spec.experiments.size(); ++i) {
      const std::string& e = spec.experiments[i];
      Table t{{"Range", "Time(%)", "Time", "Calls", "Avg", "Min", "Max", "Name"}, {}};
      for (const auto& r : gpu_activities_in(m, e))
        t.rows.push_back({e, format_number("%.2f%%", r.share_pct), nvprof_duration(static_cast<double>(r.total_ns)),
                          std::to_string(r.calls), nvprof_duration(r.average_ns()),
                          nvprof_duration(static_cast<double>(r.min_ns)), nvprof_duration(static_cast<double>(r.max_ns)),
                          Text{code(r.name)}});
      if (t.rows.empty()) t.rows.push_back({e, "—", "—", "—", "—", "—", "—", "no GPU activity measured"});
      for (const auto& row : rows) {
        std::vector<Text> cells = {"source", "—", "—", "—", "—", "—", "—", ""};
        std::string citation;
        for (std::size_t s = 0; s < 6; ++s)
          for (const auto& r : lab.references)
            if (r.experiment == e && r.quantity.id() == row.columns[s]) {
              cells[s + 1] = s == 0 ? format_number("%.2f%%", r.value) : s == 2 ? format_number("%.0f", r.value) : nvprof_duration(r.value);
              citation = r.citation;
            }
        if (citation.empty()) continue;
        cells[0] = "source [" + std::to_string(citations.number(citation)) + "]";
        cells[7] = row.name;
        t.rows.push_back(std::move(cells));
      }
      if (i > 0) names.push_back(e);
      (i == 0 ? sheet : others).table(std::move(t));
    }
    if (!names.empty()) sheet.fold("nvprof's GPU activities of " + join(names, ", "), std::move(others));
  }
}

/// Each [[timeline]]: per range, its kernels and copies stream by stream, on one time scale.
void add_timelines(Sheet& sheet, const LabData& lab, const Measurement& m) {
  for (std::size_t i = 0; i < lab.timelines.size(); ++i) {
    const TimelineSpec& spec = lab.timelines[i];
    std::vector<std::uint64_t> spans;
    for (const auto& e : spec.experiments) spans.push_back(range_activity_span_ns(m, e));
    const std::uint64_t span = *std::max_element(spans.begin(), spans.end());   // one scale for all
    std::string text = "One lane per stream, named at its left: kernels green, copies orange, memsets purple, each named "
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
    if (!spec.text.empty()) sheet.markdown(spec.text);
    sheet.picture(spec.experiments.size() == 1 ? "the timeline" : "the timelines, on one scale", text);
    sheet.data["timelines"].push_back(std::move(data));
  }
}

}  // namespace labbook::report
