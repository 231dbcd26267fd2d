#pragma once
// The sheet's "compiler resource report" section, from a lab's [resources] table: the
// source's ptxas -v example and per-block register arithmetic, then this build's report,
// one row per kernel, with the registers a block of the recorded launch needs.
#include <string>

#include "lab_data.h"
#include "labbook/model/measurement.h"
#include "sheet.h"

namespace labbook::report {

/// Appends the section to `sheet` (and its rows to sheet.data["resources"]). `folder` is
/// the lab's folder, where report.file is found; a missing or empty capture is said in the sheet.
void add_resource_section(Sheet& sheet, const ResourceReport& report, const std::string& folder, const Measurement& m);

}  // namespace labbook::report
