#include "sheet_standing.h"

namespace labbook::report {

SheetStanding standing_of(const nlohmann::json& sheet_data) {
  SheetStanding s;
  s.recorded = sheet_data.value("recorded", false);
  s.measured_at = sheet_data.value("measured_at", "");
  const auto sections = sheet_data.find("sections");
  if (sections == sheet_data.end() || !sections->is_array()) return s;
  for (const auto& section : *sections) {
    const auto rows = section.find("rows");
    if (rows == section.end() || !rows->is_array()) continue;
    for (const auto& row : *rows) {
      const auto measured = row.find("measured");
      if (measured != row.end() && measured->is_object() && measured->contains("value")) ++s.measured_values;
    }
  }
  return s;
}

SheetStanding standing_of(const Sheet& sheet) {
  SheetStanding s;
  s.recorded = sheet.recorded;
  s.measured_at = sheet.measured_at.value_or("");
  for (const auto& question : sheet.questions)
    for (const auto& row : question.rows) s.measured_values += row.measured.value.has_value();
  return s;
}

std::string worse_because(const SheetStanding& current, const SheetStanding& next) {
  // The same run rendered again (by a newer labbook, or with a note) replaces itself.
  if (!current.measured_at.empty() && current.measured_at == next.measured_at) return "";
  if (!current.recorded && next.recorded)
    return "it was measured on this machine (" + current.measured_at + ") and the new one comes from a recording";
  if (next.measured_values < current.measured_values)
    return "it has " + std::to_string(current.measured_values) + " measured values and the new one " +
           std::to_string(next.measured_values);
  return "";
}

}  // namespace labbook::report
