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

}  // namespace

std::string terminal_summary(const Sheet& sheet) {
  std::string out = "\n" + sheet.title + "\n";
  // A recording's values were measured elsewhere: the heading must not say "here".
  out += pad("experiment", 31) + pad("quantity", 25) + pad(sheet.recorded ? "recorded" : "measured here", 19) +
         pad(sheet.recorded ? "model, its GPU" : "model, this GPU", 19) + pad("verdict", 15) + "source (its GPU)\n";
  for (const auto& question : sheet.questions)
    for (const auto& row : question.rows) {
      if (!row.source) continue;
      const std::string measured = row.measured.value ? format_value(*row.measured.value, row.unit) : "not collected";
      const std::string printed =
          row.source->printed.empty() ? format_as_printed(row.source->value, row.source->unit) : row.source->printed;
      const std::string model = row.model_this_gpu ? format_value(*row.model_this_gpu, row.unit) : "-";
      out += pad(row.experiment, 31) + pad(row.quantity.label(), 25) + pad(measured, 19) + pad(model, 19) +
             pad(row.verdict == "—" ? "-" : row.verdict, 15) + printed + "\n";
    }
  for (const auto& claim : sheet.claims) out += "claim: " + claim.claim + " -> " + claim.verdict_line() + "\n";
  return out;
}

}  // namespace labbook::report
