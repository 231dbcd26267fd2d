#pragma once
// What a lab data file says to compare against: the sources' numbers ([[reference]]), their
// claims ([[claim]]) and the lab's acceptance checks ([[check]]), each read from the file's
// tables. `peaks`: the lab's, which a share of a peak needs.
#include <string>
#include <vector>

#include "lab_data.h"
#include "labbook/model/toml_reader.h"

namespace labbook::report {

std::vector<ReferenceValue> parse_references(const TomlReader& top, const std::string& origin,
                                             const std::vector<ArithmeticPeak>* peaks);
std::vector<Claim> parse_claims(const TomlReader& top, const std::string& origin, const std::vector<ArithmeticPeak>* peaks);
/// `has_model`: the lab has a [model] table, which as_predicted checks need.
std::vector<Check> parse_checks(const TomlReader& top, const std::string& origin, const std::vector<ArithmeticPeak>* peaks,
                                bool has_model);

}  // namespace labbook::report
