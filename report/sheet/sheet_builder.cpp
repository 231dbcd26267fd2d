#include "sheet_builder.h"

#include <algorithm>
#include <cstdlib>
#include <map>

#include "architecture.h"
#include "labbook/model/quantity_labels.h"
#include "claims_section.h"
#include "figure_sections.h"
#include "format.h"
#include "html_page.h"
#include "markdown_writer.h"
#include "model_predictions.h"
#include "quantities.h"
#include "resource_section.h"
#include "results_table.h"
#include "setup_section.h"

namespace labbook::report {

using nlohmann::json;

namespace {

std::string cell(const QuantityValue& v, const std::string& unit) {
  return v.value ? format_value(*v.value, unit) : v.missing;
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
  const auto key = [](const std::string& v, const std::string& g, const Quantity& q) { return v + '\n' + g + '\n' + q.name(); };
  json rows = json::array();
  for (const auto& v : values) {
    json row = {{sweep.parameter, v}};
    for (const auto& g : sweep.groups)
      for (const auto& q : sweep.quantities) {
        const QuantityValue& value = measured[key(v, g, q)] =
            range_quantity(m, g + "/" + sweep.parameter + "=" + v, q, lab.peaks);
        row[g][q.name()] = value_json(value, q.unit());
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
  std::vector<std::vector<Quantity>> tables;
  if (apart) {
    for (const auto& q : sweep.quantities) tables.push_back({q});
  } else {
    tables.push_back(sweep.quantities);
  }
  for (const auto& quantities : tables) {
    Table t;
    t.header.push_back(quantity_reader_label(sweep.parameter));
    for (const auto& g : sweep.groups)
      for (const auto& q : quantities) t.header.push_back(apart ? g : g + ": " + q.label());
    for (const auto& v : values) {
      // A size in bytes reads as one ("4 KiB"), not as its digits.
      char* end = nullptr;
      const double number = std::strtod(v.c_str(), &end);
      std::vector<Text> cells = {sweep.unit == "bytes" && end && *end == '\0' ? format_size(number) : v};
      for (const auto& g : sweep.groups)
        for (const auto& q : quantities)
          cells.push_back(cell(measured.at(key(v, g, q)), q.unit()));
      t.rows.push_back(std::move(cells));
    }
    // A long sweep, and every quantity after the first, folds under one line in the HTML that
    // names the quantity. A short first table shows its quantity above it.
    const std::size_t columns = t.header.size() - 1;
    if (t.rows.size() > kLongSweepRows || &quantities != &tables.front())
      t.folded_under = (apart ? "The sweep's " + quantities.front().label() : std::string("The sweep's table")) +
                       ": " + std::to_string(t.rows.size()) + " values of " + sweep.parameter + ", " +
                       std::to_string(columns) + (columns == 1 ? " column" : " columns");
    else if (apart)
      sheet.lines({Text{strong(quantities.front().label())}});
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

/// The sheet's body, built before its summary: the questions in order, each a home for the
/// claims on its experiments, with where its blocks start.
struct Body {
  Sheet sheet;
  std::vector<ClaimHome> homes;
  std::vector<std::size_t> starts;   ///< the block each home starts at

  /// Runs `add` as the next home's content; a home that adds nothing is dropped.
  template <typename Add>
  void part(std::vector<std::string> experiments, std::vector<std::string> prefixes, Add add) {
    const std::size_t start = sheet.blocks.size();
    add(sheet);
    if (sheet.blocks.size() == start) return;
    homes.push_back({"", std::move(experiments), std::move(prefixes)});
    starts.push_back(start);
  }
};

/// Questions become numbered second-level sections ("3. Misaligned reads"), their
/// sub-headings third-level; each home takes the title of its first heading.
void number_questions(Body& body) {
  int number = 0;
  std::size_t home = 0;
  for (std::size_t i = 0; i < body.sheet.blocks.size(); ++i) {
    Block& b = body.sheet.blocks[i];
    if (b.kind != Block::Kind::Heading) continue;
    if (b.level == 3) {
      b.text = std::to_string(++number) + ". " + b.text;
      b.level = 2;
      while (home < body.starts.size() && body.starts[home] <= i) {
        if (body.homes[home].heading.empty()) body.homes[home].heading = b.text;
        ++home;
      }
    } else if (b.level == 4) {
      b.level = 3;
    }
  }
  // A fold's headings (the charts of a question's other kernels) move up a level as well.
  for (auto& b : body.sheet.blocks)
    for_each_block(b.children, [](Block& inside) {
      if (inside.kind == Block::Kind::Heading && inside.level == 4) inside.level = 3;
    });
}

/// The lab's key picture under the summary: the first one-warp picture, else the first chart.
void add_key_picture(Sheet& sheet, const std::vector<Figure>& figures) {
  const auto key = std::find_if(figures.begin(), figures.end(), [](const Figure& f) { return !f.alt.empty(); });
  if (key == figures.end()) return;
  sheet.markdown("![" + escape_inline(key->alt) + "](" + key->file + ")");
}

}  // namespace

Sheet build_sheet(const LabData& lab, const Measurement& m, const SheetContext& context) {
  Citations citations;
  NoteBook notes;
  ModelPredictions model(lab, m);
  const std::string measured_title = measured_heading(m, context.recorded);

  // The questions: the lab's sections, then its pictures and sweeps, each with its experiments.
  Body body;
  body.sheet.data = {{"sweeps", json::array()}};
  // Each section's experiment, told under the same line as its claims (one line less a question).
  std::vector<Sheet> experiments(lab.sections.size());
  ResultsTableContext results{lab, m, citations, notes, model};
  for (const Measurement& other : context.beside) results.beside.push_back(&other);
  for (std::size_t i = 0; i < lab.sections.size(); ++i) {
    const Section& section = lab.sections[i];
    body.part(section.experiments, {}, [&](Sheet& s) {
      s.heading(3, section.title);
      QuestionRecord question{section.title, expand_placeholders(section.answer, m, lab.peaks), {}};
      // The answer leads; how the experiment runs waits under a line after the table.
      const std::string text = section.text.empty() ? "" : expand_placeholders(section.text, m, lab.peaks);
      if (question.answer.empty()) {
        if (!text.empty()) s.markdown(text);
      } else {
        s.markdown("**In short:** " + question.answer);
        if (!text.empty()) experiments[i].markdown(text);
      }
      s.table(results_table(section, results, question.rows));
      s.questions.push_back(std::move(question));
    });
  }
  if (lab.model) body.part(lab.model->figures, {}, [&](Sheet& s) { add_warp_figures(s, lab, model); });
  std::vector<std::string> charted;
  for (const auto& c : lab.memory_charts) charted.push_back(c.experiment);
  body.part(charted, {}, [&](Sheet& s) { add_memory_charts(s, lab, m, context.beside, model); });
  std::vector<std::string> roofed;
  for (const auto& r : lab.rooflines) roofed.insert(roofed.end(), r.experiments.begin(), r.experiments.end());
  body.part(roofed, {}, [&](Sheet& s) { add_rooflines(s, lab, m); });
  for (const auto& sweep : lab.sweeps) {
    std::vector<std::string> prefixes;
    for (const auto& g : sweep.groups) prefixes.push_back(g + "/" + sweep.parameter + "=");
    body.part({}, prefixes, [&](Sheet& s) { add_sweep(s, lab, sweep, m); });
  }
  if (lab.resources) body.part({}, {}, [&](Sheet& s) { add_resource_section(s, *lab.resources, lab.folder(), m); });
  std::vector<std::string> bars;
  for (const auto& c : lab.charts) bars.insert(bars.end(), c.experiments.begin(), c.experiments.end());
  body.part(bars, {}, [&](Sheet& s) { add_charts(s, lab, m); });
  std::vector<std::string> curve_prefixes;
  for (const auto& c : lab.curves)
    for (const auto& g : c.groups) curve_prefixes.push_back(g + "/" + c.parameter + "=");
  body.part({}, curve_prefixes, [&](Sheet& s) { add_curves(s, lab, m); });
  std::vector<std::string> activity, timed;
  for (const auto& a : lab.activity_tables) activity.insert(activity.end(), a.experiments.begin(), a.experiments.end());
  body.part(activity, {}, [&](Sheet& s) { add_activity_tables(s, lab, m, citations); });
  for (const auto& t : lab.timelines) timed.insert(timed.end(), t.experiments.begin(), t.experiments.end());
  body.part(timed, {}, [&](Sheet& s) { add_timelines(s, lab, m); });
  number_questions(body);
  const std::vector<JudgedClaim> claims = judge_claims(lab, m, citations, body.homes, context.beside);
  std::vector<std::string> beside_gpus;
  for (const Measurement& other : context.beside) beside_gpus.push_back(gpu_short_name(other));

  Sheet sheet;
  sheet.title = lab.title;
  sheet.data = body.sheet.data;
  sheet.questions = std::move(body.sheet.questions);
  sheet.lab = lab.id;
  sheet.recorded = context.recorded;
  sheet.heading(1, lab.title);
  if (!context.note.empty()) {
    sheet.callout({strong("Note:"), {" " + context.note}});
    sheet.data["note"] = context.note;
  }
  sheet.heading(2, "What you will learn");
  sheet.markdown(lab.prose.goals);
  add_claims_summary(sheet, lab, claims, body.homes, measured_title, beside_gpus);
  add_key_picture(sheet, body.sheet.figures);
  sheet.folded_heading("Background");
  sheet.markdown(lab.prose.background);
  if (lab.model)
    sheet.markdown("In the tables, *source* columns give the value a source printed (citation in brackets), *model* "
                   "columns the warp model's prediction for the source's GPU (each named in the header, or in the cell "
                   "where the rows differ); measured columns show this GPU, marked "
                   "\"≠ model\" where the model for this GPU (within " + format_value(lab.model->tolerance, "") +
                   " % or points) is beyond the repeats' spread. " + architectures_in_the_model(*lab.model));

  // The questions, each followed by the claims it answers.
  for (std::size_t h = 0; h < body.homes.size(); ++h) {
    const std::size_t end = h + 1 < body.starts.size() ? body.starts[h + 1] : body.sheet.blocks.size();
    sheet.blocks.insert(sheet.blocks.end(), body.sheet.blocks.begin() + static_cast<long>(body.starts[h]),
                        body.sheet.blocks.begin() + static_cast<long>(end));
    add_claims_of(sheet, claims, static_cast<int>(h), beside_gpus,
                  h < experiments.size() ? std::move(experiments[h]) : Sheet{});
  }
  sheet.figures = std::move(body.sheet.figures);
  if (std::any_of(claims.begin(), claims.end(), [](const JudgedClaim& j) { return j.home < 0; })) {
    sheet.heading(2, "Other claims");
    add_claims_of(sheet, claims, -1, beside_gpus);
  }

  sheet.folded_heading("What to look at");
  sheet.markdown(lab.prose.look_at);
  sheet.folded_heading("Questions");
  std::string questions;
  for (std::size_t i = 0; i < lab.prose.questions.size(); ++i)
    questions += std::to_string(i + 1) + ". " + lab.prose.questions[i] + "\n";
  sheet.markdown(questions);
  add_exercises(sheet, context.exercises);

  add_how_measured(sheet, lab, m, context.recorded);
  add_not_reproduced(sheet, lab, citations);
  add_collection_notes(sheet, m);
  add_references(sheet, lab, citations);
  return sheet;
}

}  // namespace labbook::report
