#include "placeholders.h"

#include <regex>

#include "format.h"
#include "quantities.h"

namespace labbook::report {

std::string expand_placeholders(const std::string& text, const Measurement& m, const std::vector<ArithmeticPeak>& peaks) {
  static const std::regex placeholder(R"(\{([^{}:]+):([^{}:]+)\})");
  std::string out;
  std::sregex_iterator it(text.begin(), text.end(), placeholder), end;
  std::size_t last = 0;
  for (; it != end; ++it) {
    const auto& match = *it;
    out += text.substr(last, static_cast<std::size_t>(match.position()) - last);
    const std::string quantity = match[2];
    const QuantityValue v = range_quantity(m, match[1], quantity, peaks);
    out += v.value ? format_value(*v.value, quantity_unit(quantity)) : "(not measured)";
    last = static_cast<std::size_t>(match.position() + match.length());
  }
  return out + text.substr(last);
}

}  // namespace labbook::report
