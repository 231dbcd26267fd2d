#include "format.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <optional>

namespace labbook::report {

namespace {
bool is_count(const std::string& unit) {
  for (const char* u : {"sectors", "requests", "transactions", "threads", "wavefronts", "conflicts", "cycles", "calls", "faults", "B",
                        "FLOP", "kernels", "instructions"})
    if (unit == u) return true;
  return false;
}

/// A unit that names things counted ("formats", "address bits", "cudaError_t"): words, no
/// '/' and no scale of labbook's own. Whole values of it print without decimals.
bool is_word_unit(const std::string& unit) {
  if (unit.empty() || unit.find('/') != std::string::npos) return false;
  for (unsigned char c : unit)
    if (!std::isalpha(c) && c != ' ' && c != '_') return false;
  return true;
}

/// "1 kernel", "2 kernels": a plural count unit after exactly one.
std::string counted(double v, const std::string& unit) {
  const long long n = std::llround(v);
  const bool plural_word = unit.size() > 2 && unit.back() == 's' && unit.find(' ') == std::string::npos;
  return with_thousands(n) + " " + (n == 1 && plural_word ? unit.substr(0, unit.size() - 1) : unit);
}
}  // namespace

std::string svg_number(double value) { return format_number("%.1f", value); }

std::size_t text_length(const std::string& text) {
  std::size_t n = 0;
  for (unsigned char c : text) n += (c & 0xC0) != 0x80;   // continuation bytes do not count
  return n;
}

std::string cut_text(const std::string& text, std::size_t chars) {
  if (text_length(text) <= chars) return text;
  std::string out;
  std::size_t n = 0;
  for (unsigned char c : text) {
    if ((c & 0xC0) != 0x80 && ++n == chars) break;
    out += static_cast<char>(c);
  }
  return out + "…";
}

double svg_text_width(const std::string& text, double font_size) {
  // DejaVu Sans advance widths in ems, a to z; capitals, digits and the rest by class.
  static constexpr double kLower[26] = {0.62, 0.64, 0.56, 0.64, 0.62, 0.36, 0.64, 0.64, 0.28, 0.28, 0.58, 0.28, 0.98,
                                        0.64, 0.62, 0.64, 0.64, 0.42, 0.53, 0.4,  0.64, 0.6,  0.82, 0.6,  0.6,  0.53};
  double ems = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x80) {   // a character beyond ASCII ("µ", "…"): count its lead byte only
      if ((c & 0xC0) == 0xC0) ems += 0.8;
    } else if (c >= 'a' && c <= 'z') ems += kLower[c - 'a'];
    else if (c == 'M' || c == 'W') ems += 1.0;
    else if (std::isupper(c)) ems += 0.76;
    else if (std::isdigit(c)) ems += 0.64;
    else if (c && std::strchr(" .,:;'!|()[]-/", c)) ems += 0.4;
    else ems += 0.84;   // # % & and other wide signs
  }
  return ems * font_size;
}

std::string two_decimals(double value) { return format_number("%.2f", value); }

std::string format_ratio(double ratio) {
  if (!std::isfinite(ratio) || ratio == 0 || std::fabs(ratio) >= 0.01) return two_decimals(ratio);
  // Two significant digits: as many decimals as the leading zeros after the point, plus two
  // (at most 12: smaller ratios read as zero anyway).
  const int decimals = std::min(12, 1 - static_cast<int>(std::floor(std::log10(std::fabs(ratio)))));
  const std::string format = "%." + std::to_string(decimals) + "f";
  return format_number(format.c_str(), ratio);
}

std::string escape_markup(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string with_thousands(long long value) {
  std::string digits = std::to_string(value < 0 ? -value : value);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return value < 0 ? "-" + out : out;
}

namespace {

/// How a value of one of labbook's scaled units prints: divided by `scale`, with `decimals`,
/// followed by `suffix`. nullopt for units printed as they are.
struct Scaled {
  double scale;
  int decimals;
  const char* suffix;
};
std::optional<Scaled> scaled_form(double v, const std::string& unit) {
  if (unit == "%") return Scaled{1, 2, " %"};
  if (unit == "ns") {
    if (std::fabs(v) >= 1e6) return Scaled{1e6, 3, " ms"};
    if (std::fabs(v) < 1e3 && v != 0) return Scaled{1, 1, " ns"};   // a timer's tick, not "0.0 µs"
    return Scaled{1e3, 1, " µs"};
  }
  if (unit == "bytes") {
    if (std::fabs(v) < 1024.0 * 1024.0 && v != 0) return Scaled{1024.0, 1, " KiB"};   // a page, not "0.0 MiB"
    return Scaled{1024.0 * 1024.0, 1, " MiB"};
  }
  if (unit == "bytes/s") return Scaled{1e9, 1, " GB/s"};
  if (unit == "FLOP/s") return Scaled{1e9, 1, " GFLOP/s"};
  if (unit == "Hz") return Scaled{1e9, 3, " GHz"};
  return std::nullopt;
}

}  // namespace

std::string format_value(double v, const std::string& unit) {
  if (std::isnan(v)) return "NaN";
  if (const auto form = scaled_form(v, unit)) return with_decimals(v / form->scale, form->decimals) + form->suffix;
  if (is_count(unit)) return counted(v, unit);
  if (is_word_unit(unit) && v == std::floor(v) && std::fabs(v) < 1e15) return counted(v, unit);
  return format_number("%.2f", v) + (unit.empty() ? "" : " " + unit);
}

std::string format_size(double bytes) {
  static const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  while (std::fabs(bytes) >= 1024 && u < 4) bytes /= 1024, ++u;
  return (bytes == std::floor(bytes) ? format_number("%.0f", bytes) : format_number("%.1f", bytes)) + " " + kUnits[u];
}

std::string format_as_printed(double v, const std::string& unit) {
  // Sources print bytes as bytes, never in binary MiB: their digits are not MiB's.
  const auto form = scaled_form(v, unit);
  if (!form || unit == "bytes" || std::isnan(v)) return format_value(v, unit);
  const double shown = v / form->scale;
  // More decimals only where the source printed them (38.13 GB/s, not 38.1).
  int decimals = form->decimals;
  while (decimals < 4) {
    const double p = std::pow(10.0, decimals);
    if (std::fabs(std::round(shown * p) / p - shown) <= 1e-9 * std::max(1.0, std::fabs(shown))) break;
    ++decimals;
  }
  return with_decimals(shown, decimals) + form->suffix;
}

bool is_scaled_unit(const std::string& unit) {
  for (const char* u : {"%", "ns", "bytes", "bytes/s", "FLOP/s", "Hz", "B"})
    if (unit == u) return true;
  return false;
}

std::string format_comparison(double measured, double source, const std::string& unit) {
  if (unit == "%") {
    const double d = measured - source;
    return format_number("%+.2f pts", d);
  }
  if (source == 0) return "—";
  return format_number("x%.2f", measured / source);
}

std::string readable_time(const std::string& iso) {
  // YYYY-MM-DDTHH:MM:SSZ
  if (iso.size() != 20 || iso[10] != 'T' || iso[19] != 'Z') return iso;
  return iso.substr(0, 10) + " " + iso.substr(11, 5) + " UTC";
}

}  // namespace labbook::report
