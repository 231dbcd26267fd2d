// `labbook run LAB`, `render LAB`, `check LAB` and `workbook`: measure (or load) a lab and
// write its sheet; check a measurement against the lab's acceptance checks; every lab's
// sheet plus the index. Labs are found as labs/*/lab.toml: nothing here names one.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <optional>

#include "commands.h"
#include "comparison.h"
#include "gpu_probe.h"
#include "exercise.h"
#include "format.h"
#include "install_layout.h"
#include "lab_checks.h"
#include "lab_data.h"
#include "launch_filter.h"
#include "labbook/model/atomic_file.h"
#include "labbook/model/error.h"
#include "labbook/model/measurement_json.h"
#include "labbook/model/metric_catalog.h"
#include "labbook/model/text.h"
#include "profile_session.h"
#include "sheet_builder.h"
#include "sheet_standing.h"
#include "source_lines.h"
#include "sheet_files.h"
#include "terminal_summary.h"
#include "trace_writer.h"
#include "workbook_index.h"

namespace labbook::cli {

using profiler::ProfileOutcome;
using profiler::ProfileRequest;
using profiler::profile_program;

namespace fs = std::filesystem;

namespace {

/// The folder of the labs' data and the glossary.
fs::path labs_folder() { return install_layout().labs(); }

/// What every sheet of a command draws on besides its lab: read once, however many sheets.
struct SheetInputs {
  report::Glossary glossary;
  std::vector<grading::Exercise> exercises;
};
SheetInputs sheet_inputs() {
  return {report::load_glossary((labs_folder() / "glossary.toml").string()),
          grading::find_exercises(labs_folder().string())};
}

/// Every lab, in folder order (labs/03_..., labs/04_..., ...).
std::vector<report::LabData> all_labs() {
  std::vector<fs::path> folders;
  for (const auto& entry : fs::directory_iterator(labs_folder()))
    if (fs::exists(entry.path() / "lab.toml")) folders.push_back(entry.path());
  std::sort(folders.begin(), folders.end());
  std::vector<report::LabData> labs;
  for (const auto& f : folders) labs.push_back(report::load_lab_data((f / "lab.toml").string()));
  return labs;
}

/// The lab whose lab.toml has [lab] id = `id`.
report::LabData find_lab(const std::string& id) {
  std::string known;
  for (auto& lab : all_labs()) {
    if (lab.id == id) return lab;
    known += (known.empty() ? "" : ", ") + lab.id;
  }
  throw UsageError("no lab '" + report::cut_text(id, 80) + "' (known: " + known + ")");
}

/// The measurement at `path`, refused when another program made it: lab 4's recording given to
/// lab 3 would render a sheet of "not measured" rows and pass no check.
Measurement measurement_of(const report::LabData& lab, const std::string& path) {
  Measurement m = read_measurement(path);
  if (!m.program.command.empty()) {
    const std::string program = fs::path(m.program.command.front()).filename().string();
    if (program != lab.program)
      throw UsageError(path + " measured '" + program + "', not " + lab.id + "'s program '" + lab.program + "'");
  }
  return m;
}

/// The workbook's navigation bar: the index, every lab, the glossary.
report::Navigation navigation(const std::vector<report::LabData>& labs, const std::string& current) {
  report::Navigation nav{{{"index", "Index"}}, current};
  for (const auto& lab : labs) nav.links.push_back({lab.id, lab.title.substr(0, lab.title.find(" — "))});
  nav.links.push_back({report::kGlossaryPage, "Glossary"});
  return nav;
}

/// Prints the sheet's summary (report/render/terminal_summary.h) and where its files are.
void print_summary(const report::Sheet& sheet, const report::SheetFiles& files) {
  std::fputs(report::terminal_summary(sheet).c_str(), stdout);
  std::printf("\nsheet: %s\n       %s\n       %s\n", files.markdown.c_str(), files.html.c_str(), files.json.c_str());
}

/// Refuses to replace the sheet in `out_dir` by a worse one (report/sheet/sheet_standing.h).
void keep_better_sheet(const report::Sheet& sheet, const std::string& out_dir, const std::string& id) {
  const std::string path = out_dir + "/" + id + ".json";
  if (!fs::exists(path)) return;
  nlohmann::json current;
  try {
    current = nlohmann::json::parse(read_file(path));
  } catch (const std::exception&) {
    return;   // not a sheet labbook can read: nothing better to keep
  }
  const std::string why = report::worse_because(report::standing_of(current), report::standing_of(sheet));
  if (!why.empty())
    throw Error(path + " is not replaced: " + why + "; --force replaces it, or --out writes elsewhere");
}

/// Writes the lab's sheet; its terms link to the glossary page, which the caller writes beside
/// it (write_glossary_page).
void write_outputs(const report::LabData& lab, const Measurement& m, const SheetInputs& inputs, const std::string& out_dir,
                   const std::string& note, bool recorded, bool force, const report::Navigation& nav = {},
                   std::vector<Measurement> beside = {}) {
  fs::create_directories(out_dir);
  report::SheetContext context{note, recorded};
  context.beside = std::move(beside);
  for (const auto& e : inputs.exercises)
    if (e.lab == lab.id) context.exercises.push_back({e.id, e.title});
  const report::Sheet sheet = report::build_sheet(lab, m, context);
  if (!force) keep_better_sheet(sheet, out_dir, lab.id);
  const report::SheetFiles files = report::write_sheet(sheet, out_dir, lab.id, nav, &inputs.glossary);
  report::write_chrome_trace(m, out_dir + "/" + lab.id + ".trace.json.gz");
  print_summary(sheet, files);
  std::printf("       %s/%s.trace.json.gz (open in https://ui.perfetto.dev)\n", out_dir.c_str(), lab.id.c_str());
}

/// The glossary beside the sheets, so that their terms can link to it.
void write_glossary_page(const SheetInputs& inputs, const std::string& out_dir, const report::Navigation& nav = {}) {
  fs::create_directories(out_dir);
  report::write_glossary(inputs.glossary, out_dir, nav);
}

std::string recording_note(const Measurement& m, const std::string& path, const std::string& why) {
  const std::string gpu = m.devices.empty() ? "another GPU" : m.devices.front().name;
  // The recording as the reader can open it: relative to here when it lies below.
  const fs::path relative = fs::path(path).lexically_relative(fs::current_path());
  const bool below = !relative.empty() && *relative.begin() != "..";
  return "rendered from a recording (" + why + "): measured on " + gpu + " on " +
         report::readable_time(m.program.started_at) + ", not on this machine (" +
         (below ? relative.string() : path) + ").";
}

std::string recording_path(const report::LabData& lab) {
  if (lab.recordings.empty()) throw Error("lab " + lab.id + " has no recording ([lab] recorded in " + lab.path + ")");
  return (fs::path(lab.folder()) / lab.recordings.front()).string();
}

/// A lab measured here, or read from its recordings.
struct LabRun {
  Measurement measurement;
  std::string note;                  ///< for a recording, what the sheet says at its top
  std::vector<Measurement> beside;   ///< the lab's other recordings (other GPUs), for a recording
};

/// Measures the lab here, or reads its recordings where there is no GPU (or when asked to).
LabRun measure_lab(const report::LabData& lab, const RunOptions& options) {
  std::string why;
  if (options.force_recorded || !gpu_available(why)) {
    // A recording ran with the lab's own arguments: others cannot be honoured without a GPU.
    if (!options.lab_args.empty()) {
      const std::string args = "the program's arguments (" + report::cut_text(join(options.lab_args, " "), 80) + ")";
      throw UsageError(options.force_recorded
                           ? "--recorded shows the lab's recording, made with its own arguments: leave " + args + " out"
                           : args + " need a GPU (" + why + "); without one, labbook shows the lab's recording, "
                             "made with the lab's own arguments");
    }
    const std::string path = recording_path(lab);
    Measurement m = read_measurement(path);
    const std::string note = recording_note(m, path, options.force_recorded ? "--recorded" : "no GPU here: " + why);
    std::printf("labbook: %s\n", note.c_str());
    std::vector<Measurement> beside;
    for (std::size_t i = 1; i < lab.recordings.size(); ++i)
      beside.push_back(read_measurement((fs::path(lab.folder()) / lab.recordings[i]).string()));
    return {std::move(m), note, std::move(beside)};
  }
  ProfileRequest request;
  request.command = {(fs::path(install_layout().lab_programs) / lab.program).string()};
  request.command.insert(request.command.end(), lab.args.begin(), lab.args.end());
  request.command.insert(request.command.end(), options.lab_args.begin(), options.lab_args.end());
  request.collector = install_layout().collector;
  request.cupti_metrics = cupti_metrics_for(lab.metrics);
  if (lab.source_lines()) {
    // One run per kernel counted: those of the memory charts whose lines the sheet shows.
    request.source_metrics = report::source_line_metrics();
    for (const auto& chart : lab.memory_charts)
      if (chart.source_lines) request.source_nvtx.push_back(profiler::glob_literal(chart.experiment));
    // CUPTI sums a kernel's launches over the run: one chart's source runs run its experiment
    // alone (every lab program takes --only), so that a kernel of several experiments counts
    // that one's launches only.
    if (request.source_nvtx.size() == 1)
      for (const auto& chart : lab.memory_charts)
        if (chart.source_lines) request.source_args = {"--only", chart.experiment};
  }
  request.work_dir = options.out_dir + "/.runs/" + lab.id;
  ProfileOutcome outcome = profile_program(request);
  if (!outcome.collected) throw Error(outcome.problem);
  if (outcome.exit_code != 0)
    throw Error("the " + lab.id + " program failed (exit code " + std::to_string(outcome.exit_code) +
                "): a wrong result or a CUDA error, see its output above; no sheet was written");
  const std::string measurement = options.out_dir + "/" + lab.id + ".measurement.json";
  write_measurement(outcome.measurement, measurement);
  std::printf("labbook: measurements in %s\n", measurement.c_str());
  return {std::move(outcome.measurement), "", {}};
}

}  // namespace

namespace {

/// A measurement file named on the command line, "recorded" being the lab's recording, as a
/// reader finds it: relative to here when it lies below; refused when there is no such file.
std::string compared_path(const report::LabData& lab, const std::string& name) {
  std::string path = name;
  if (name == "recorded") {
    const fs::path relative = fs::path(recording_path(lab)).lexically_relative(fs::current_path());
    path = !relative.empty() && *relative.begin() != ".." ? relative.string() : recording_path(lab);
  }
  if (!fs::is_regular_file(path))
    throw UsageError("compare: '" + report::cut_text(name, 80) + "' is not a measurement file (nor \"recorded\")");
  return path;
}

/// Writes <out>/<lab>.compare.* and prints what differs.
void write_comparison(const report::LabData& lab, const report::ComparedRun& a, const report::ComparedRun& b,
                      const std::string& out_dir) {
  const report::Comparison c = report::compare_runs(lab, a, b);
  fs::create_directories(out_dir);
  const report::SheetFiles files = report::write_sheet(c.sheet, out_dir, lab.id + ".compare");
  std::printf("%s: %d of %d values differ beyond the noise, %d of %d claims change their verdict\n", lab.id.c_str(),
              c.beyond_noise, c.values, c.claims_changed, c.claims);
  std::printf("comparison: %s\n            %s\n            %s\n", files.markdown.c_str(), files.html.c_str(),
              files.json.c_str());
}

}  // namespace

int run_lab(const RunOptions& options) {
  const report::LabData lab = find_lab(options.lab);
  // The measurement to compare with is read before the lab runs: a mistake costs no GPU time.
  const std::string against = options.compare.empty() ? "" : compared_path(lab, options.compare);
  const std::optional<Measurement> compared =
      against.empty() ? std::nullopt : std::optional<Measurement>(measurement_of(lab, against));
  const SheetInputs inputs = sheet_inputs();
  auto [m, note, beside] = measure_lab(lab, options);
  write_outputs(lab, m, inputs, options.out_dir, note, !note.empty(), options.force, {}, std::move(beside));
  write_glossary_page(inputs, options.out_dir);
  const std::string this_run = note.empty() ? "this run" : "the recording (no run here)";
  if (compared) write_comparison(lab, {*compared, against}, {m, this_run}, options.out_dir);
  return 0;
}

int render_lab(const RenderOptions& options) {
  const report::LabData lab = find_lab(options.lab);
  const SheetInputs inputs = sheet_inputs();
  write_outputs(lab, measurement_of(lab, options.measurement), inputs, options.out_dir, options.note, /*recorded=*/true,
                options.force);
  write_glossary_page(inputs, options.out_dir);
  return 0;
}

int compare_lab(const CompareOptions& options) {
  const report::LabData lab = find_lab(options.lab);
  const std::string a = compared_path(lab, options.a), b = compared_path(lab, options.b);
  write_comparison(lab, {measurement_of(lab, a), a}, {measurement_of(lab, b), b}, options.out_dir);
  return 0;
}

int check_lab(const std::string& lab_id, const std::string& measurement) {
  const report::LabData lab = find_lab(lab_id);
  const std::string path = measurement.empty() ? recording_path(lab) : measurement;
  int failures = 0, inconclusive = 0;
  const auto outcomes = report::check_measurement(lab, measurement_of(lab, path));
  for (const auto& o : outcomes) {
    std::printf("%-4s %s\n", o.inconclusive ? "?" : o.passed ? "ok" : "FAIL", o.text.c_str());
    failures += o.passed ? 0 : 1;
    inconclusive += o.inconclusive ? 1 : 0;
  }
  std::printf("%s: %zu checks, %d failed, %d inconclusive (%s)\n", lab.id.c_str(), outcomes.size(), failures,
              inconclusive, path.c_str());
  return failures == 0 ? 0 : kExitFailure;
}

int workbook(const RunOptions& options) {
  const std::vector<report::LabData> labs = all_labs();
  const SheetInputs inputs = sheet_inputs();
  std::vector<report::WorkbookEntry> entries;
  int failures = 0;
  for (const auto& lab : labs) {
    report::WorkbookEntry e{lab.id, lab.title, lab.summary, "", "", false, "", {}};
    for (const auto& x : inputs.exercises)
      if (x.lab == lab.id) e.exercises.push_back(x.id);
    try {
      auto [m, note, beside] = measure_lab(lab, options);
      write_outputs(lab, m, inputs, options.out_dir, note, !note.empty(), options.force, navigation(labs, lab.id),
                    std::move(beside));
      e.gpu = m.devices.empty() ? "unknown GPU" : m.devices.front().name;
      e.measured_at = m.program.started_at;
      e.recorded = !note.empty();
    } catch (const std::exception& error) {   // one lab's failure leaves the others' sheets
      std::fprintf(stderr, "labbook: %s: %s\n", lab.id.c_str(), error.what());
      e.problem = error.what();
      ++failures;
    }
    entries.push_back(std::move(e));
  }
  write_glossary_page(inputs, options.out_dir, navigation(labs, report::kGlossaryPage));
  const report::SheetFiles index =
      report::write_sheet(report::build_workbook_index(entries, labs.empty() ? std::vector<report::SourceDocument>{} : labs.front().sources), options.out_dir, "index", navigation(labs, "index"));
  std::printf("\nworkbook: %s\n          %s\n", index.markdown.c_str(), index.html.c_str());
  return failures == 0 ? 0 : kExitFailure;
}

int list_metrics(const std::string& lab_id, bool all_cupti) {
  if (!lab_id.empty() || all_cupti) {
    std::vector<std::string> names;
    if (all_cupti)
      for (const auto& m : metric_catalog()) names.push_back(m.name);
    else
      names = find_lab(lab_id).metrics;
    std::printf("%s\n", join(cupti_metrics_for(names), ",").c_str());
    return 0;
  }
  std::printf("%-38s %-18s %s\n", "name", "unit", "CUPTI (Perfworks) formula");
  for (const auto& m : metric_catalog())
    std::printf("%-38s %-18s %s\n", m.name.c_str(), m.unit.c_str(), m.formula_text().c_str());
  return 0;
}

}  // namespace labbook::cli
