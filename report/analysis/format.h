#pragma once
// Numbers as a sheet prints them: units a person reads (µs, GB/s, %), thousands separators.
#include <cstddef>
#include <string>

#include "labbook/model/numbers.h"

namespace labbook::report {

/// Formats `value` given in `unit` (labbook's units: "%", "ns", "bytes", "bytes/s", "FLOP/s",
/// "Hz", counts such as "sectors" or "FLOP", with a plural unit made singular after exactly
/// one; a unit of words such as "formats" prints whole values without decimals; anything else
/// is printed with two decimals followed by the unit).
std::string format_value(double value, const std::string& unit);

/// A source's number with every digit the source printed: format_value's units and scale,
/// with more decimals where the value has them (38.13e9 bytes/s -> "38.13 GB/s", not "38.1").
std::string format_as_printed(double value, const std::string& unit);

/// A size in bytes as a person reads it: 4096 -> "4 KiB", 1073741824 -> "1 GiB", 1536 -> "1.5 KiB".
std::string format_size(double bytes);

/// True for the units format_value prints in a form of its own ("ns" as µs or ms, "bytes" as
/// MiB, "B" with thousands separators, "%"): a source value in another unit than its quantity's
/// would print off by that scale.
bool is_scaled_unit(const std::string& unit);

/// How the measured value compares with the source's: a difference in points for
/// percentages ("+30.19 pts"), a ratio otherwise ("x1.25").
std::string format_comparison(double measured, double source, const std::string& unit);

/// A plain number with two decimals, no unit ("1.61"): a ratio, a bound, a score.
std::string two_decimals(double value);

/// A ratio as a reader reads it: two decimals ("1.61"), or two significant digits below 0.01
/// ("0.00067", not "0.00", which reads as nothing at all; at most 12 decimals).
std::string format_ratio(double ratio);

/// 1234567 -> "1,234,567".
std::string with_thousands(long long value);

/// A coordinate or length in an SVG picture: one decimal ("12.5").
std::string svg_number(double value);

/// Characters of UTF-8 `text`, not bytes: "µs" is two.
std::size_t text_length(const std::string& text);

/// `text` cut to at most `chars` characters, the last one "…" when cut (UTF-8 safe).
std::string cut_text(const std::string& text, std::size_t chars);

/// How wide `text` (UTF-8) is drawn in a sans-serif font of `font_size`, estimated from DejaVu
/// Sans, the widest common default: on the safe side, so that text measured to fit does.
double svg_text_width(const std::string& text, double font_size);

/// Text safe inside HTML, SVG or XML elements and attributes: & < > " escaped.
std::string escape_markup(const std::string& text);

/// An ISO 8601 UTC time as a reader reads it: "2026-11-25T19:34:02Z" -> "2026-11-25 19:34 UTC";
/// anything else unchanged.
std::string readable_time(const std::string& iso);

}  // namespace labbook::report
