#pragma once
// How lab data files are read: one TOML table at a time, every error naming the file's line,
// quantities and the placeholders of prose resolved as they are read.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "lab_data.h"
#include "labbook/model/quantity.h"
#include "labbook/model/toml_reader.h"
#include "placeholders.h"

namespace labbook::report {

/// Reads fields of one TOML table; every error names origin:line and the key.
/// TomlReader plus the check that a quantity names something the report knows, and that a
/// share of a peak has the lab's [[peak]] (`peaks`: the lab's, parsed first).
class TableReader : public TomlReader {
 public:
  TableReader(const toml::table& t, const std::string& origin, std::string where,
              const std::vector<ArithmeticPeak>* peaks = nullptr)
      : TomlReader(t, origin, std::move(where)), peaks_(peaks) {}
  /// Markdown at `key` whose "{range:quantity}" placeholders name known quantities.
  std::string prose(const std::string& key, bool required = false) const {
    std::string text = string(key, required);
    if (const std::string problem = placeholder_problem(text); !problem.empty()) fail(key, problem);
    return text;
  }
  /// The quantity the string at `key` names, resolved.
  Quantity quantity(const std::string& key) const { return resolve(key, string(key)); }
  /// The quantities the array at `key` names, resolved.
  std::vector<Quantity> quantities(const std::string& key, bool required = true) const {
    std::vector<Quantity> out;
    for (const auto& name : strings(key, required)) out.push_back(resolve(key, name));
    return out;
  }

 private:
  Quantity resolve(const std::string& key, const std::string& name) const {
    const std::optional<Quantity> q = Quantity::find(name, QuantityScope::kRange);
    if (!q) fail(key, "names unknown quantity '" + name + "' (closest: " + closest_quantities(name, QuantityScope::kRange) + ")");
    if (q->id() != QuantityId::kShareOfPeak) return *q;
    const Quantity rate = q->rate();
    const bool declared = peaks_ && std::any_of(peaks_->begin(), peaks_->end(),
                                                [&](const ArithmeticPeak& p) { return p.quantity == rate; });
    if (!declared) fail(key, "names '" + name + "', which needs a [[peak]] with quantity = \"" + rate.name() + "\"");
    return *q;
  }

  const std::vector<ArithmeticPeak>* peaks_;
};

}  // namespace labbook::report
