#pragma once
/// @file
/// A question's table: one row per experiment, a column per quantity that matters (its label,
/// the unit in the header where every cell shares it), the source's value and the warp model's
/// beside it only where they exist. The model for this GPU shows only where the measurement
/// differs from it beyond the repeats' spread; every value still goes to the sheet's JSON.
#include <nlohmann/json.hpp>

#include "citations.h"
#include "lab_data.h"
#include "labbook/model/measurement.h"
#include "model_predictions.h"
#include "placeholders.h"
#include "quantities.h"
#include "sheet.h"

namespace labbook::report {

/// A row's name as a reader reads it: the path's parts after `drop_prefix`, with byte counts
/// as sizes ("copy/pinned/h2d/bytes=1073741824" -> "copy/pinned/h2d/1 GiB").
std::string experiment_label(const std::string& experiment, const std::string& drop_prefix = "");

/// The prefix every experiment shares up to a '/', kept out of their rows ("readSegment/"), or
/// "" when they share none or there is one experiment.
std::string shared_prefix(const std::vector<std::string>& experiments);

struct ResultsTableContext {
  const LabData& lab;
  const Measurement& m;
  Citations& citations;
  NoteBook& notes;
  ModelPredictions& model;
  /// Other GPUs' recordings: a column each for a quantity where one differs beyond the noise.
  std::vector<const Measurement*> beside = {};
};

/// "Fermi M2070 (the chapter's GPU...)" -> "Fermi M2070", "not named; presumably..." -> "GPU
/// not named": a source's GPU in a cell, a header or a legend.
std::string short_gpu(const std::string& gpu);

/// A measured value as the JSON of a sheet holds it: value or why missing, unit, repeats.
nlohmann::json value_json(const QuantityValue&, const std::string& unit);

/// The section's table; its findings, one per experiment and quantity, go to `records`.
Table results_table(const Section& section, ResultsTableContext& context, std::vector<ResultRecord>& records);

}  // namespace labbook::report
