#include "lab_data.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <tuple>

#include <fnmatch.h>


#include "architecture.h"
#include "format.h"
#include "kernel_models.h"
#include "lab_findings.h"
#include "lab_table_reader.h"

#include "labbook/model/atomic_file.h"
#include "labbook/model/error.h"
#include "labbook/model/metric_catalog.h"
#include "labbook/model/text.h"
#include "labbook/model/toml_reader.h"
#include "quantities.h"
#include "stream_lanes.h"

namespace labbook::report {

namespace {


/// "9.0" -> (9, 0).
std::pair<int, int> compute_capability(const TableReader& r, const std::string& key) {
  const std::string text = r.string(key);
  int major = 0, minor = 0;
  char end = 0;
  if (std::sscanf(text.c_str(), "%d.%d%c", &major, &minor, &end) != 2 || major <= 0 || minor < 0)
    r.fail(key, "must be a compute capability such as \"9.0\"");
  return {major, minor};
}

ArithmeticPeak parse_peak(const toml::table& table, const std::string& origin) {
  const TableReader r(table, origin, "[[peak]]");
  ArithmeticPeak peak;
  peak.quantity = r.quantity("quantity");
  const std::string unit = peak.quantity.unit();
  if (unit.size() < 2 || unit.compare(unit.size() - 2, 2, "/s") != 0)
    r.fail("quantity", "must be a rate (a unit per second), not '" + peak.quantity.name() + "' in '" + unit + "'");
  std::tie(peak.cc_major, peak.cc_minor) = compute_capability(r, "compute_capability");
  peak.per_sm_per_clock = *r.number("per_sm_per_clock");
  if (peak.per_sm_per_clock <= 0) r.fail("per_sm_per_clock", "must be positive");
  peak.text = r.string("text");
  peak.citation = r.string("citation");
  if (!r.string("counter", false).empty()) peak.counter = r.quantity("counter");
  return peak;
}

/// Checks a name against the warp model, turning its error into one that names file:line.
template <typename Check>
void check_model_name(const TableReader& r, const std::string& key, const Check& check) {
  try {
    check();
  } catch (const Error& e) {
    r.fail(key, e.what());
  }
}

ModelSettings parse_model(const toml::table& table, const std::string& origin, const std::vector<ArithmeticPeak>& peaks) {
  const TableReader m(table, origin, "[model]");
  ModelSettings model;
  model.this_architecture = m.string("this_architecture");
  check_model_name(m, "this_architecture", [&] { warp::architecture(model.this_architecture); });
  model.source_params = m.integers("source_params");
  model.tolerance = m.number("tolerance", false).value_or(1.0);
  model.figures = m.strings("figures", false);
  model.figure_stores = m.strings("figure_stores", false);
  for (const auto& e : model.figure_stores)
    if (std::find(model.figures.begin(), model.figures.end(), e) == model.figures.end())
      m.fail("figure_stores", "names '" + e + "', which is not one of 'figures'");
  for (const toml::table* t : m.tables("pattern")) {
    const TableReader p(*t, origin, "[[model.pattern]]");
    ModelPattern pattern;
    pattern.experiments = p.string("experiments");
    pattern.kernel = p.string("kernel");
    check_model_name(p, "kernel", [&] { warp::kernel_models().find(pattern.kernel); });
    pattern.source_architecture = p.string("source_architecture");
    check_model_name(p, "source_architecture", [&] { warp::architecture(pattern.source_architecture); });
    pattern.params = p.integers("params");
    model.patterns.push_back(std::move(pattern));
  }
  for (const toml::table* t : m.tables("gap")) {
    const TableReader g(*t, origin, "[[model.gap]]", &peaks);
    ModelGap gap{g.string("experiments"), g.quantity("quantity"), g.string("reason")};
    model.gaps.push_back(std::move(gap));
  }
  return model;
}

/// True when `experiment` is a range the lab's data names: in a section, reference, claim,
/// activity table or timeline, or "<group>/<parameter>=<value>" of a sweep or curve.
bool names_an_experiment(const LabData& lab, const std::string& experiment) {
  const auto all = lab.experiments();
  if (std::find(all.begin(), all.end(), experiment) != all.end()) return true;
  const auto in_group = [&](const std::string& group, const std::string& parameter) {
    const std::string prefix = group + "/" + parameter + "=";
    return experiment.size() > prefix.size() && experiment.compare(0, prefix.size(), prefix) == 0 &&
           experiment.find('/', prefix.size()) == std::string::npos;
  };
  for (const auto& s : lab.sweeps)
    for (const auto& g : s.groups)
      if (in_group(g, s.parameter)) return true;
  for (const auto& c : lab.curves)
    for (const auto& g : c.groups)
      if (in_group(g, c.parameter)) return true;
  return false;
}

/// The lab's experiments nearest to `name`, for a message.
std::string closest_experiments(const LabData& lab, const std::string& name) {
  return join(closest_names(name, lab.experiments()), ", ");
}

/// Each [[memory_chart]]: its experiment must be one the lab already names, so that a typo
/// does not become a chart of nothing.
std::vector<MemoryChartSpec> parse_memory_charts(const TableReader& top, const LabData& lab, const std::string& origin) {
  std::vector<MemoryChartSpec> out;
  for (const toml::table* t : top.tables("memory_chart")) {
    const TableReader r(*t, origin, "[[memory_chart]]");
    r.only({"experiment", "caption", "source_lines"});
    MemoryChartSpec spec{r.string("experiment"), r.prose("caption"), r.boolean("source_lines", false), r.line()};
    if (!names_an_experiment(lab, spec.experiment))
      r.fail("experiment", "names '" + spec.experiment + "', which no section, sweep, curve, reference, claim, "
                           "activity table or timeline of this lab names (closest: " +
                               closest_experiments(lab, spec.experiment) + ")");
    out.push_back(std::move(spec));
  }
  return out;
}

/// Each [[roofline]]: like a memory chart's, its experiments must be ones the lab names.
std::vector<RooflineSpec> parse_rooflines(const TableReader& top, const LabData& lab, const std::string& origin) {
  std::vector<RooflineSpec> out;
  for (const toml::table* t : top.tables("roofline")) {
    const TableReader r(*t, origin, "[[roofline]]");
    r.only({"title", "caption", "experiments"});
    RooflineSpec spec{r.string("title"), r.prose("caption"), r.strings("experiments"), r.line()};
    if (spec.experiments.empty()) r.fail("experiments", "is empty");
    for (const auto& e : spec.experiments)
      if (!names_an_experiment(lab, e))
        r.fail("experiments", "names '" + e + "', which no section, sweep, curve, reference, claim, activity table or "
                              "timeline of this lab names (closest: " + closest_experiments(lab, e) + ")");
    out.push_back(std::move(spec));
  }
  return out;
}

/// A [[timeline]]'s lane names: each one a lane's name in the picture, told apart from the
/// others, and the default stream called what labbook calls it where the trace shows it.
void check_stream_names(const TableReader& r, const std::vector<std::string>& names) {
  for (std::size_t i = 0; i < names.size(); ++i) {
    const std::string& n = names[i];
    if (n.find_first_not_of(" \t") == std::string::npos) r.fail("streams", "holds an empty name");
    if (text_length(n) > kRangeLaneNameChars)
      r.fail("streams", "name '" + n + "' is longer than " + std::to_string(kRangeLaneNameChars) +
                            " characters, what a timeline shows of a lane's name");
    if (std::find(names.begin(), names.begin() + static_cast<std::ptrdiff_t>(i), n) != names.begin() + static_cast<std::ptrdiff_t>(i))
      r.fail("streams", "names '" + n + "' twice: two lanes would look like one stream");
    std::string lower = n;
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
    if (lower.find("default") != std::string::npos && n != kDefaultStreamName && n != kPerThreadDefaultStreamName)
      r.fail("streams", "names a default stream '" + n + "': call it '" + kDefaultStreamName + "' or '" +
                            kPerThreadDefaultStreamName + "', as the timeline does wherever the trace shows one");
  }
}

}  // namespace

std::optional<double> ArithmeticPeak::on(const DeviceFacts& device) const {
  if (device.cc_major != cc_major || device.cc_minor != cc_minor) return std::nullopt;
  return per_sm_per_clock * device.sm_count * device.sm_clock_khz * 1e3;
}

const ArithmeticPeak* peak_for(const std::vector<ArithmeticPeak>& peaks, const Quantity& quantity,
                               const DeviceFacts& device) {
  for (const auto& p : peaks)
    if (p.quantity == quantity && !p.counter && p.on(device)) return &p;
  return nullptr;
}

const ModelPattern* ModelSettings::pattern_for(const std::string& experiment) const {
  for (const auto& p : patterns)
    if (::fnmatch(p.experiments.c_str(), experiment.c_str(), 0) == 0) return &p;
  return nullptr;
}

bool LabData::uses_peaks() const {
  if (!rooflines.empty()) return true;
  std::vector<Quantity> named;
  for (const auto& s : sections) named.insert(named.end(), s.quantities.begin(), s.quantities.end());
  for (const auto& s : sweeps) named.insert(named.end(), s.quantities.begin(), s.quantities.end());
  for (const auto& c : charts) named.push_back(c.quantity);
  for (const auto& c : curves) named.push_back(c.quantity);
  for (const auto& r : references) named.push_back(r.quantity);
  for (const auto& c : claims) named.push_back(c.quantity);
  for (const auto& c : checks) named.push_back(c.quantity);
  return std::any_of(named.begin(), named.end(), [](const Quantity& q) { return q.id() == QuantityId::kShareOfPeak; });
}

bool LabData::source_lines() const {
  return std::any_of(memory_charts.begin(), memory_charts.end(), [](const MemoryChartSpec& c) { return c.source_lines; });
}

std::string LabData::folder() const { return std::filesystem::path(path).parent_path().string(); }

std::vector<std::string> LabData::experiments() const {
  std::vector<std::string> out;
  auto add = [&](const std::string& e) {
    if (!e.empty() && std::find(out.begin(), out.end(), e) == out.end()) out.push_back(e);
  };
  for (const auto& s : sections)
    for (const auto& e : s.experiments) add(e);
  for (const auto& r : references) add(r.experiment);
  for (const auto& t : activity_tables)
    for (const auto& e : t.experiments) add(e);
  for (const auto& t : timelines)
    for (const auto& e : t.experiments) add(e);
  for (const auto& c : claims) {
    add(c.numerator);
    add(c.denominator);
    add(c.experiment);
    for (const auto& e : c.candidates) add(e);
  }
  return out;
}

std::vector<ArithmeticPeak> parse_arithmetic_peaks(const std::string& text, const std::string& origin) {
  const toml::table root = parse_toml(text, origin);
  const TableReader top(root, origin, "peaks");
  top.only({"peak"});
  std::vector<ArithmeticPeak> peaks;
  for (const toml::table* t : top.tables("peak")) peaks.push_back(parse_peak(*t, origin));
  return peaks;
}

std::vector<ArithmeticPeak> load_arithmetic_peaks(const std::string& path) {
  return parse_arithmetic_peaks(read_file(path), path);
}

LabData parse_lab_data(const std::string& text, const std::string& origin, std::vector<ArithmeticPeak> shared_peaks) {
  const toml::table root = parse_toml(text, origin);
  const TableReader top(root, origin, "lab data");
  LabData lab;
  lab.path = origin;

  const TableReader head(top.table("lab"), origin, "[lab]");
  lab.id = head.string("id");
  lab.title = head.string("title");
  lab.summary = head.string("summary");
  lab.program = head.string("program");
  lab.args = head.strings("args", false);
  lab.recordings = head.strings("recorded", false);
  lab.source = head.string("source");
  lab.metrics = head.strings("metrics");
  for (const auto& m : lab.metrics)
    if (!find_catalog_metric(m))
      head.fail("metrics", "names '" + m + "', which is not a catalog metric (closest: " + join(closest_metric_names(m), ", ") +
                               "; `labbook metrics` lists them)");

  const TableReader sheet(top.table("sheet"), origin, "[sheet]");
  sheet.only({"goals", "background", "look_at", "questions"});
  lab.prose = {sheet.string("goals"), sheet.string("background"), sheet.string("look_at"),
               sheet.strings("questions")};

  // Before anything that names quantities: "<rate>_pct_of_peak" needs its [[peak]], the
  // lab's own or one of peaks.toml's.
  lab.peaks = std::move(shared_peaks);
  for (const toml::table* t : top.tables("peak")) lab.peaks.push_back(parse_peak(*t, origin));
  const auto* peaks = &lab.peaks;

  for (const toml::table* t : top.tables("section")) {
    const TableReader s(*t, origin, "[[section]]", peaks);
    Section section{s.string("title"), s.prose("text"), s.prose("answer"), s.strings("experiments"), s.quantities("quantities"),
                    s.string("baseline", false), s.quantities("baseline_quantities", false)};
    if (section.experiments.empty()) s.fail("experiments", "is empty");
    if (!section.baseline_quantities.empty() && section.baseline.empty())
      s.fail("baseline_quantities", "needs a baseline");
    for (const auto& q : section.baseline_quantities)
      if (std::find(section.quantities.begin(), section.quantities.end(), q) == section.quantities.end())
        s.fail("baseline_quantities", "names '" + q.name() + "', which is not one of the section's quantities");
    lab.sections.push_back(std::move(section));
  }
  if (lab.sections.empty()) top.fail(root.source(), "needs at least one [[section]]");

  // [sweep] for one, [[sweep]] for several.
  std::vector<const toml::table*> sweeps;
  if (const toml::node* n = root.get("sweep"); n && n->is_table()) sweeps.push_back(n->as_table());
  else sweeps = top.tables("sweep");
  for (const toml::table* t : sweeps) {
    const TableReader s(*t, origin, "[sweep]", peaks);
    Sweep sweep{s.string("title"), s.prose("text"), s.string("parameter"), s.string("unit", false),
                s.strings("groups"), s.quantities("quantities")};
    if (sweep.groups.empty()) s.fail("groups", "is empty");
    if (!sweep.unit.empty() && sweep.unit != "bytes") s.fail("unit", "must be \"bytes\" (sizes) or left out");
    lab.sweeps.push_back(std::move(sweep));
  }

  for (const toml::table* t : top.tables("chart")) {
    const TableReader c(*t, origin, "[[chart]]", peaks);
    Chart chart{c.string("title"), c.string("text", false), c.quantity("quantity"), c.strings("experiments")};
    if (chart.experiments.empty()) c.fail("experiments", "is empty");
    lab.charts.push_back(std::move(chart));
  }

  for (const toml::table* t : top.tables("curve")) {
    const TableReader c(*t, origin, "[[curve]]", peaks);
    Curve curve{c.string("title"), c.string("text", false), c.string("parameter"), c.quantity("quantity"),
                c.strings("groups"), c.string("x_unit", false), c.boolean("log_x", true), c.boolean("log_y", false)};
    if (curve.groups.empty()) c.fail("groups", "is empty");
    if (curve.parameter.empty() || curve.parameter.find_first_of("/=") != std::string::npos)
      c.fail("parameter", "must be a name such as 'bytes' (no '/' or '=')");
    lab.curves.push_back(std::move(curve));
  }

  for (const toml::table* t : top.tables("activity_table")) {
    const TableReader a(*t, origin, "[[activity_table]]");
    ActivityTableSpec table{a.string("title"), a.string("text", false), a.strings("experiments")};
    if (table.experiments.empty()) a.fail("experiments", "is empty");
    lab.activity_tables.push_back(std::move(table));
  }

  for (const toml::table* t : top.tables("timeline")) {
    const TableReader a(*t, origin, "[[timeline]]");
    a.only({"title", "text", "experiments", "streams"});
    TimelineSpec timeline{a.string("title"), a.string("text", false), a.strings("experiments"), a.strings("streams", false)};
    if (timeline.experiments.empty()) a.fail("experiments", "is empty");
    check_stream_names(a, timeline.streams);
    lab.timelines.push_back(std::move(timeline));
  }

  if (root.contains("resources")) {
    const TableReader r(top.table("resources"), origin, "[resources]");
    ResourceReport report{r.string("title"), r.string("text", false), r.string("file"),
                          r.string("source_example", false), r.string("citation", false), r.string("source_gpu", false)};
    report.source_registers_per_block = static_cast<long long>(r.number("source_registers_per_block", false).value_or(0));
    report.source_threads_per_block = static_cast<long long>(r.number("source_threads_per_block", false).value_or(0));
    if ((!report.source_example.empty() || report.source_registers_per_block > 0) &&
        report.citation.find(".txt") == std::string::npos)
      r.fail("citation", "must name a source file (e.g. 004_12112d3317679e06.txt, « section »)");
    lab.resources = std::move(report);
  }

  lab.references = parse_references(top, origin, peaks);
  lab.claims = parse_claims(top, origin, peaks);

  if (root.contains("model")) lab.model = parse_model(top.table("model"), origin, lab.peaks);

  for (const toml::table* t : top.tables("not_reproduced")) {
    const TableReader r(*t, origin, "[[not_reproduced]]");
    r.only({"experiment", "citation", "reason"});
    lab.not_reproduced.push_back({r.string("experiment"), r.string("citation"), r.string("reason")});
  }

  lab.checks = parse_checks(top, origin, &lab.peaks, lab.model.has_value());

  // Last: they check names against everything above.
  lab.memory_charts = parse_memory_charts(top, lab, origin);
  lab.rooflines = parse_rooflines(top, lab, origin);
  return lab;
}

LabData load_lab_data(const std::string& path) {
  const std::filesystem::path labs = std::filesystem::path(path).parent_path().parent_path();
  const std::filesystem::path peaks = labs / "peaks.toml";
  LabData lab = parse_lab_data(read_file(path), path,
                               std::filesystem::exists(peaks) ? load_arithmetic_peaks(peaks.string()) : std::vector<ArithmeticPeak>{});
  const std::filesystem::path sources = labs / "sources.toml";
  if (!std::filesystem::exists(sources)) return lab;
  lab.sources = load_source_documents(sources.string());
  // A citation of a source file ("003_c67e0f909fb510d6.txt, ...") must name a listed document.
  auto check = [&](const std::string& citation, int line) {
    const std::string file = citation.substr(0, citation.find(','));
    const bool names_a_source = file.size() > 4 && file.compare(file.size() - 4, 4, ".txt") == 0;
    if (names_a_source && !cited_document(lab.sources, citation))
      throw Error(path + ":" + std::to_string(line) + ": the citation names '" + file + "', which " + sources.string() +
                  " does not list");
  };
  for (const auto& r : lab.references) check(r.citation, r.line);
  for (const auto& c : lab.claims) check(c.citation, 0);
  for (const auto& n : lab.not_reproduced) check(n.citation, 0);
  return lab;
}

}  // namespace labbook::report
