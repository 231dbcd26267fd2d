#pragma once
// Measured values inside a lab's prose: "{range:quantity}" in lab.toml reads as the number.
#include <string>
#include <vector>

#include "lab_data.h"
#include "labbook/model/measurement.h"

namespace labbook::report {

/// Replaces each "{range:quantity}" in `text` with the measured value, formatted (`peaks`:
/// the lab's, for shares of a peak).
std::string expand_placeholders(const std::string& text, const Measurement&, const std::vector<ArithmeticPeak>& peaks);

/// What is wrong with the placeholders of `text`: "" when each names a quantity labbook knows,
/// else which one does not, with the closest names (lab files are checked when they load).
std::string placeholder_problem(const std::string& text);

}  // namespace labbook::report
