#pragma once
/// @file
/// Whether a new sheet would be worse than the one already in its folder: a sheet measured on
/// this machine is not replaced by one from a recording, nor a sheet by one with fewer measured
/// values (a run that collected less), unless the user asks (--force).
#include <string>

#include <nlohmann/json.hpp>

#include "sheet.h"

namespace labbook::report {

struct SheetStanding {
  bool recorded = false;      ///< its numbers come from a recording, not this machine
  int measured_values = 0;    ///< cells of its sections with a measured value
  std::string measured_at;
};

/// The standing of a sheet from its JSON (reports/labN.json), as an earlier run wrote it.
SheetStanding standing_of(const nlohmann::json& sheet_data);
/// The standing of a sheet just built.
SheetStanding standing_of(const Sheet& sheet);

/// Why `next` would be worse than `current`, as a sentence; "" when it is not, or when both
/// come from the same run.
std::string worse_because(const SheetStanding& current, const SheetStanding& next);

}  // namespace labbook::report
