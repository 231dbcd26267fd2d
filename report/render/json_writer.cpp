#include "json_writer.h"

#include "results_table.h"

namespace labbook::report {

using nlohmann::json;

namespace {

json result_json(const ResultRecord& r) {
  json row = {{"experiment", r.experiment}, {"quantity", r.quantity.name()}, {"measured", value_json(r.measured, r.unit)},
              {"verdict", r.verdict}};
  if (r.model_source_gpu) row["model_source_gpu"] = {{"value", *r.model_source_gpu}, {"architecture", r.model_architecture}};
  if (r.model_this_gpu) row["model_this_gpu"] = *r.model_this_gpu;
  if (r.source) {
    row["source"] = {{"value", r.source->value}, {"unit", r.source->unit}, {"gpu", r.source->gpu},
                     {"build", r.source->build}, {"citation", r.source->citation}};
    if (!r.source->printed.empty()) row["source"]["printed"] = r.source->printed;
  }
  if (!r.comparison.empty()) row["comparison"] = r.comparison;
  if (r.of_baseline) row["of_baseline"] = *r.of_baseline;
  return row;
}

json claim_json(const ClaimRecord& c) {
  json row = {{"claim", c.claim}, {"citation", c.citation}, {"verdict", c.verdict_line()}};
  if (c.ratio) row["ratio"] = {{"value", c.ratio->value}, {"low", c.ratio->low}, {"high", c.ratio->high}};
  if (!c.section.empty()) row["section"] = c.section;
  for (const auto& [gpu, verdict] : c.other_gpus) row["other_gpus"].push_back({{"gpu", gpu}, {"verdict", verdict}});
  return row;
}

}  // namespace

json sheet_json(const Sheet& sheet) {
  json out = sheet.data;
  if (sheet.measured_at) out["measured_at"] = *sheet.measured_at;
  if (sheet.lab.empty()) return out;
  out["lab"] = sheet.lab;
  out["title"] = sheet.title;
  out["schema_version"] = kSheetSchemaVersion;
  out["recorded"] = sheet.recorded;
  out["sections"] = json::array();
  for (const auto& q : sheet.questions) {
    json rows = json::array();
    for (const auto& r : q.rows) rows.push_back(result_json(r));
    out["sections"].push_back({{"title", q.title}, {"answer", q.answer}, {"rows", std::move(rows)}});
  }
  out["claims"] = json::array();
  for (const auto& c : sheet.claims) out["claims"].push_back(claim_json(c));
  return out;
}

}  // namespace labbook::report
