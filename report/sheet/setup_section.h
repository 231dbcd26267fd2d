#pragma once
/// @file
/// The end of a sheet, folded in the HTML: how the numbers were measured (GPU, clocks, CUPTI,
/// command, peaks and their derivation, every quantity's definition), what the sources did that
/// the lab does not, the collector's notes, and the references.
#include <string>

#include "citations.h"
#include "lab_data.h"
#include "labbook/model/measurement.h"
#include "sheet.h"

namespace labbook::report {

/// "Measured here", or for a recording "Measured on H100 (recording)": the reader must know
/// the numbers were not taken on the machine that rendered the sheet.
std::string measured_heading(const Measurement& m, bool recorded);
/// The measured GPU in a word or two: "H100" for "NVIDIA H100 80GB HBM3".
std::string gpu_short_name(const Measurement& m);

void add_how_measured(Sheet& sheet, const LabData& lab, const Measurement& m, bool recorded);
void add_not_reproduced(Sheet& sheet, const LabData& lab, Citations& citations);
void add_collection_notes(Sheet& sheet, const Measurement& m);
void add_references(Sheet& sheet, const LabData& lab, const Citations& citations);

}  // namespace labbook::report
