#include "results_table.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "architecture.h"
#include "format.h"
#include "comparison.h"
#include "quantities.h"
#include "setup_section.h"

namespace labbook::report {

using nlohmann::json;

namespace {

/// "transactions" where the unit says "sectors": the sources' GPUs counted lines or segments.
std::string source_unit(const std::string& unit) {
  const auto at = unit.find("sectors");
  return at == std::string::npos ? unit : unit.substr(0, at) + "transactions" + unit.substr(at + 7);
}

bool blank(const Text& cell) {
  const std::string p = cell.plain();
  return p.empty() || p == " " || p == "—";
}

/// One column as it is built: a formatted value per row, and what follows it (a citation, a
/// note, the model's value where the measurement differs from it).
struct Column {
  std::string header;
  std::vector<std::string> values;
  std::vector<std::vector<Span>> after;
  bool unit_to_header = false;   ///< a unit every value shares moves to the header
  /// Per row, the values of other GPUs' recordings, shown after the value ("79.1 · 69.0").
  std::vector<std::vector<std::string>> beside = {};

  void add(std::string value, std::vector<Span> rest = {}) {
    values.push_back(std::move(value));
    after.push_back(std::move(rest));
  }
};

/// The unit every value of the column ends with (" %", " GB/s"), other GPUs' values beside
/// them included, or "" when they differ.
std::string common_unit(const Column& c) {
  std::vector<std::string> all = c.values;
  for (const auto& row : c.beside) all.insert(all.end(), row.begin(), row.end());
  std::string unit;
  for (const auto& v : all) {
    if (v.empty() || v == "—") continue;
    if (!(std::isdigit(static_cast<unsigned char>(v[0])) || v[0] == '-')) return "";   // "not measured"
    const auto space = v.rfind(' ');
    if (space == std::string::npos) return "";
    const std::string u = v.substr(space + 1);
    if (u.empty() || (u[0] >= '0' && u[0] <= '9')) return "";
    if (!unit.empty() && u != unit) return "";
    unit = u;
  }
  return unit;
}

/// The cell of a missing value: its reason's first words ("not measured", "not known",
/// "none"), the rest going to a note.
std::string missing_word(const std::string& missing) {
  const std::size_t colon = missing.find(':');
  return colon != std::string::npos && colon <= 16 ? missing.substr(0, colon) : "not measured";
}

/// The measurement differs from the model beyond its own repeats: a median outside the
/// tolerance while the repeats' spread reaches the prediction does not count.
bool differs_beyond_noise(ModelPredictions& model, const std::string& e, const Quantity& q, const QuantityValue& v) {
  const std::string verdict = model.verdict(e, q, v.value);
  if (verdict == "—" || verdict == "as predicted") return false;
  if (!v.varies()) return true;
  const double predicted = *model.predict(e, q).this_gpu;
  if (predicted >= v.low() && predicted <= v.high()) return false;
  return model.verdict(e, q, v.low()) != "as predicted" && model.verdict(e, q, v.high()) != "as predicted";
}

/// Each other GPU's recording beside the measured column `now`, where one of its rows differs
/// from this measurement beyond the noise (a counter that repeats exactly stays alone).
void add_beside(Column& now, const Section& section, const ResultsTableContext& c, const Quantity& q,
                const std::vector<ResultRecord>& rows, std::size_t qi) {
  for (const Measurement* other : c.beside) {
    std::vector<std::string> values;
    bool differs = false;
    for (std::size_t ei = 0; ei < section.experiments.size(); ++ei) {
      const ResultRecord& row = rows[ei * section.quantities.size() + qi];
      const QuantityValue v = range_quantity(*other, section.experiments[ei], q, c.lab.peaks);
      const Difference d = difference(q, row.measured, v);
      differs = differs || d == Difference::kBeyondNoise || d == Difference::kNoiseUnknown;
      values.push_back(v.value ? format_value(*v.value, row.unit) : "—");
    }
    if (!differs) continue;
    if (now.beside.empty()) now.header += ", " + gpu_short_name(c.m);
    now.header += " · " + gpu_short_name(*other);
    now.beside.resize(values.size());
    for (std::size_t i = 0; i < values.size(); ++i) now.beside[i].push_back(values[i]);
  }
}

}  // namespace

std::string short_gpu(const std::string& gpu) {
  // The GPU before its explanation; every way of saying the source names none reads the same.
  if (gpu.rfind("not named", 0) == 0) return "GPU not named";
  return gpu.substr(0, std::min(gpu.find(" ("), gpu.find(';')));
}

json value_json(const QuantityValue& v, const std::string& unit) {
  json j = {{"unit", unit}};
  if (v.value) j["value"] = *v.value;
  else j["missing"] = v.missing;
  if (v.varies()) j["repeats"] = v.samples;   // the run-to-run noise behind the median
  return j;
}

std::string shared_prefix(const std::vector<std::string>& experiments) {
  if (experiments.size() < 2) return "";
  const std::string& first = experiments.front();
  const auto slash = first.find('/');
  if (slash == std::string::npos) return "";
  const std::string prefix = first.substr(0, slash + 1);
  for (const auto& e : experiments)
    if (e.rfind(prefix, 0) != 0 || e.size() == prefix.size()) return "";
  return prefix;
}

std::string experiment_label(const std::string& experiment, const std::string& drop_prefix) {
  std::string path = experiment.rfind(drop_prefix, 0) == 0 ? experiment.substr(drop_prefix.size()) : experiment;
  std::string out;
  std::size_t start = 0;
  while (start <= path.size()) {
    const auto end = std::min(path.find('/', start), path.size());
    std::string part = path.substr(start, end - start);
    const auto eq = part.find('=');
    if (eq != std::string::npos && part.substr(0, eq).find("bytes") != std::string::npos) {
      const std::string digits = part.substr(eq + 1);
      if (!digits.empty() && std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
        part = format_size(std::stod(digits));
    }
    out += (out.empty() ? "" : "/") + part;
    start = end + 1;
  }
  return out;
}

Table results_table(const Section& section, ResultsTableContext& c, std::vector<ResultRecord>& records) {
  const LabData& lab = c.lab;
  const std::string prefix = shared_prefix(section.experiments);
  Table t;
  std::vector<Column> columns;
  Column names{"Experiment", {}, {}, false};
  for (const auto& e : section.experiments) names.add(experiment_label(e, prefix));
  columns.push_back(std::move(names));
  std::vector<Text> notes;
  const auto note_for = [&](const std::string& text) {
    const NoteBook::Reference ref = c.notes.add(text);
    if (ref.first_use) {
      if (notes.empty()) t.first_note = ref.number;
      notes.push_back(Text{authored(text)});
    }
    return Span{" (note " + std::to_string(ref.number) + ")"};
  };
  std::vector<ResultRecord> rows(section.experiments.size() * section.quantities.size());
  for (std::size_t qi = 0; qi < section.quantities.size(); ++qi) {
    const Quantity& q = section.quantities[qi];
    const std::string label = q.label();
    // One meaning a column: what the source printed, what the model gives for the source's GPU,
    // what this GPU measured, and the share of the section's baseline.
    Column source{label + ", source", {}, {}, true}, model{label + ", model", {}, {}, true}, now{label, {}, {}, true},
        of{label + ", of " + experiment_label(section.baseline), {}, {}, true};
    std::set<std::string> source_gpus, model_architectures;
    const auto& shown = section.baseline_quantities;
    const bool against = !section.baseline.empty() && (shown.empty() || std::find(shown.begin(), shown.end(), q) != shown.end());
    for (std::size_t ei = 0; ei < section.experiments.size(); ++ei) {
      const std::string& e = section.experiments[ei];
      auto ref = std::find_if(lab.references.begin(), lab.references.end(),
                              [&](const ReferenceValue& r) { return r.experiment == e && r.quantity == q; });
      // A number the program reported (a payload) has no unit of its own: it counts what the
      // source's value counts ("formats", "cudaError_t").
      std::string unit = q.unit();
      if (unit.empty() && ref != lab.references.end()) unit = ref->unit;
      const QuantityValue measured = range_quantity(c.m, e, q, lab.peaks);
      const Prediction p = c.model.predict(e, q);
      const std::string verdict = c.model.verdict(e, q, measured.value);
      ResultRecord& row = rows[ei * section.quantities.size() + qi];
      row.experiment = e, row.quantity = q, row.unit = unit, row.measured = measured, row.verdict = verdict;
      row.model_source_gpu = p.source_gpu, row.model_architecture = p.source_architecture, row.model_this_gpu = p.this_gpu;

      if (ref != lab.references.end()) {
        std::vector<Span> after{{" (" + short_gpu(ref->gpu) + ")"}, {" [" + std::to_string(c.citations.number(ref->citation)) + "]"}};
        source_gpus.insert(short_gpu(ref->gpu));
        std::string changed = expand_placeholders(ref->explanation, c.m, lab.peaks);
        if (!ref->note.empty()) changed += (changed.empty() ? "" : " ") + ref->note;
        if (!changed.empty()) after.push_back(note_for(changed));
        source.add(ref->printed.empty() ? format_as_printed(ref->value, ref->unit) : ref->printed, std::move(after));
        row.source = *ref;
        if (measured.value) row.comparison = format_comparison(*measured.value, ref->value, unit);
      } else {
        source.add("—");
      }
      if (p.source_gpu) {
        model.add(format_value(*p.source_gpu, source_unit(unit)), {{" (" + p.source_architecture + ")"}});
        model_architectures.insert(p.source_architecture);
      } else {
        model.add("—");
      }

      std::vector<Span> now_after;
      if (differs_beyond_noise(c.model, e, q, measured)) {
        now_after.push_back({" ≠ model " + format_value(*p.this_gpu, unit)});
        now_after.push_back(note_for("Measured against the warp model for this GPU (" + experiment_label(e) + ", " + label + "): " + verdict + "."));
      }
      if (!measured.value && !measured.missing.empty()) {
        now.add(missing_word(measured.missing), {note_for(measured.missing)});
      } else {
        now.add(measured.value ? format_value(*measured.value, unit) : "—", std::move(now_after));
      }
      if (against) {
        const QuantityValue base = range_quantity(c.m, section.baseline, q, lab.peaks);
        if (measured.value && base.value && *base.value != 0) {
          of.add(format_value(100.0 * *measured.value / *base.value, "%"));
          row.of_baseline = *measured.value / *base.value;
        } else {
          of.add("—");
        }
      }
    }
    // A GPU or architecture every row shares is named once, in the header.
    if (source_gpus.size() == 1) {
      const std::string& gpu = *source_gpus.begin();
      source.header += gpu == "GPU not named" ? " (GPU not named)" : ": " + gpu;
      for (auto& after : source.after)
        if (!after.empty()) after.erase(after.begin());   // the GPU, now in the header
    }
    if (model_architectures.size() == 1) {
      model.header += " of " + warp::architecture(*model_architectures.begin()).short_name;
      for (auto& after : model.after)
        if (!after.empty()) after.erase(after.begin());
    }
    columns.push_back(std::move(source));
    columns.push_back(std::move(model));
    add_beside(now, section, c, q, rows, qi);
    columns.push_back(std::move(now));
    if (against) columns.push_back(std::move(of));
  }
  records.insert(records.end(), std::make_move_iterator(rows.begin()), std::make_move_iterator(rows.end()));

  // Columns with nothing in any row go; a unit every value shares moves to the header.
  for (auto& col : columns) {
    std::vector<Text> cells;
    std::string unit = col.unit_to_header ? common_unit(col) : "";
    const auto without_unit = [&](std::string v) {
      if (!unit.empty() && v.size() > unit.size() + 1 && v.compare(v.size() - unit.size() - 1, std::string::npos, " " + unit) == 0)
        v.resize(v.size() - unit.size() - 1);
      return v;
    };
    for (std::size_t i = 0; i < col.values.size(); ++i) {
      std::string v = without_unit(col.values[i]);
      if (i < col.beside.size())
        for (const auto& other : col.beside[i]) v += " · " + without_unit(other);
      Text cell{v};
      for (auto& s : col.after[i]) cell.spans.push_back(s);
      cells.push_back(std::move(cell));
    }
    if (std::all_of(cells.begin(), cells.end(), blank)) continue;
    t.header.push_back(unit.empty() ? col.header : col.header + " (" + unit + ")");
    for (std::size_t i = 0; i < cells.size(); ++i) {
      if (t.rows.size() <= i) t.rows.emplace_back();
      t.rows[i].push_back(std::move(cells[i]));
    }
  }
  t.notes = std::move(notes);
  t.fold_notes = true;   // they explain single rows; the section's text answers its question
  return t;
}

}  // namespace labbook::report
