#include "placeholders.h"

#include <regex>

#include "format.h"
#include "quantities.h"

namespace labbook::report {

namespace {

const std::regex& placeholder_pattern() {
  static const std::regex placeholder(R"(\{([^{}:]+):([^{}:]+)\})");
  return placeholder;
}

}  // namespace

std::string placeholder_problem(const std::string& text) {
  for (std::sregex_iterator it(text.begin(), text.end(), placeholder_pattern()), end; it != end; ++it) {
    const std::string name = (*it)[2];
    if (!Quantity::find(name))
      return "names unknown quantity '" + name + "' in " + it->str() + " (closest: " +
             closest_quantities(name, QuantityScope::kRange) + ")";
  }
  return "";
}

std::string expand_placeholders(const std::string& text, const Measurement& m, const std::vector<ArithmeticPeak>& peaks) {
  const std::regex& placeholder = placeholder_pattern();
  std::string out;
  std::sregex_iterator it(text.begin(), text.end(), placeholder), end;
  std::size_t last = 0;
  for (; it != end; ++it) {
    const auto& match = *it;
    out += text.substr(last, static_cast<std::size_t>(match.position()) - last);
    const std::optional<Quantity> quantity = Quantity::find(match[2]);
    const QuantityValue v = quantity ? range_quantity(m, match[1], *quantity, peaks) : QuantityValue{};
    out += v.value ? format_value(*v.value, quantity->unit()) : "(not measured)";   // a lab file's names were checked
    last = static_cast<std::size_t>(match.position() + match.length());
  }
  return out + text.substr(last);
}

}  // namespace labbook::report
