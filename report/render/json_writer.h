#pragma once
/// @file
/// The sheet as JSON (reports/labN.json): a lab sheet's findings, typed in the sheet, beside
/// its other numbers. Every value shown is there, with its unit and repeats.
#include <nlohmann/json.hpp>

#include "sheet.h"

namespace labbook::report {

/// Version of a lab sheet's JSON: its "sections" rows and "claims" keep their shape within it.
inline constexpr int kSheetSchemaVersion = 1;

nlohmann::json sheet_json(const Sheet& sheet);

}  // namespace labbook::report
