#include "terminal_summary.h"

#include "format.h"
#include "quantities.h"

namespace labbook::report {

namespace {

/// Pads `text` to `width` characters (UTF-8 code points, so "µs" counts as two).
std::string pad(const std::string& text, std::size_t width) {
  std::size_t chars = 0;
  for (unsigned char c : text) chars += (c & 0xC0) != 0x80;
  return text + std::string(chars < width ? width - chars : 1, ' ');
}

std::string formatted(const nlohmann::json& value, const std::string& unit) {
  return value.contains("value") ? format_value(value["value"].get<double>(), unit) : "not collected";
}

}  // namespace

std::string terminal_summary(const Sheet& sheet) {
  std::string out = "\n" + sheet.title + "\n";
  // A recording's values were measured elsewhere: the heading must not say "here".
  const bool recorded = sheet.data.value("recorded", false);
  out += pad("experiment", 31) + pad("quantity", 25) + pad(recorded ? "recorded" : "measured here", 19) +
         pad(recorded ? "model, its GPU" : "model, this GPU", 19) + pad("verdict", 15) + "source (its GPU)\n";
  for (const auto& section : sheet.data["sections"])
    for (const auto& row : section["rows"]) {
      if (!row.contains("source")) continue;
      const std::string unit = row["measured"]["unit"].get<std::string>();
      const std::string model =
          row.contains("model_this_gpu") ? format_value(row["model_this_gpu"].get<double>(), unit) : "-";
      std::string verdict = row["verdict"].get<std::string>();
      if (verdict == "—") verdict = "-";
      out += pad(row["experiment"].get<std::string>(), 31) + pad(quantity_label(row["quantity"].get<std::string>()), 25) +
             pad(formatted(row["measured"], unit), 19) + pad(model, 19) + pad(verdict, 15) +
             format_as_printed(row["source"]["value"].get<double>(), row["source"]["unit"].get<std::string>()) + "\n";
    }
  for (const auto& claim : sheet.data["claims"])
    out += "claim: " + claim["claim"].get<std::string>() + " -> " + claim["verdict"].get<std::string>() + "\n";
  return out;
}

}  // namespace labbook::report
