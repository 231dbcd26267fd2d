#pragma once
/// @file
/// The sheet's pictures, each under its own heading: one warp then and now, memory charts
/// (with the key kernel's lines that move memory), rooflines, bar charts, curves over a sweep,
/// nvprof's activity tables and stream timelines. Each adds its SVG to Sheet::figures.
#include <nlohmann/json.hpp>

#include "citations.h"
#include "lab_data.h"
#include "labbook/model/measurement.h"
#include "model_predictions.h"
#include "sheet.h"

namespace labbook::report {

void add_warp_figures(Sheet& sheet, const LabData& lab, ModelPredictions& model);
/// `beside`: the lab's other recordings, whose source run stands in where `m` has none.
void add_memory_charts(Sheet& sheet, const LabData& lab, const Measurement& m, const std::vector<Measurement>& beside,
                       ModelPredictions& model);
void add_rooflines(Sheet& sheet, const LabData& lab, const Measurement& m);
void add_charts(Sheet& sheet, const LabData& lab, const Measurement& m);
void add_curves(Sheet& sheet, const LabData& lab, const Measurement& m);
void add_activity_tables(Sheet& sheet, const LabData& lab, const Measurement& m, Citations& citations);
void add_timelines(Sheet& sheet, const LabData& lab, const Measurement& m);

/// The values of `parameter` in ranges "<group>/<parameter>=<value>", in the order they ran.
std::vector<std::string> sweep_values(const Measurement& m, const std::string& group, const std::string& parameter);

}  // namespace labbook::report
