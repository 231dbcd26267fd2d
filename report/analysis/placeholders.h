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

}  // namespace labbook::report
