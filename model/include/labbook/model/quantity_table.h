#pragma once
/// @file
/// Every quantity labbook names, in one table: the catalog's metrics (metric_catalog.h) and the
/// quantities labbook derives from them, each with its unit, what it is, and where it is
/// defined: for an NVTX range of a lab (lab sheets and lab data, report/analysis/quantities.h) or for a
/// call of an exercise harness (a rubric's measure, grading/call_audit.h). A lab file or a
/// rubric naming a quantity outside this table is an error with its file and line.
#include <string>
#include <vector>

namespace labbook {

enum class QuantityScope {
  kRange = 1,   ///< an experiment's NVTX range in a lab
  kCall = 2,    ///< a harness call of an exercise
  kBoth = 3,
};

struct DerivedQuantity {
  const char* name;
  const char* unit;
  const char* description;
  QuantityScope scope;
  bool in(QuantityScope s) const { return (static_cast<int>(scope) & static_cast<int>(s)) != 0; }
};

/// Every derived quantity's name, in the table's order.
std::vector<std::string> derived_quantity_names();

/// The derived quantity `name`, or nullptr.
const DerivedQuantity* find_derived_quantity(const std::string& name);

/// Whether `name` is a quantity defined in scope `s`: a catalog metric (defined everywhere) or
/// a derived quantity of that scope.
bool is_quantity(const std::string& name, QuantityScope s);

/// The quantities of scope `s` closest to `name` (catalog metrics among them), for "did you
/// mean" messages: up to `count`, comma-separated.
std::string closest_quantities(const std::string& name, QuantityScope s, std::size_t count = 3);

}  // namespace labbook
