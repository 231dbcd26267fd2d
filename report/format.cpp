#include "format.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>

namespace labbook::report {

namespace {
std::string printf_string(const char* format, double value) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, value);
  return buf;
}
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

std::string svg_number(double value) { return printf_string("%.1f", value); }

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

std::string format_value(double v, const std::string& unit) {
  if (std::isnan(v)) return "NaN";
  if (unit == "%") return printf_string("%.2f %%", v);
  if (unit == "ns") {
    if (std::fabs(v) >= 1e6) return printf_string("%.3f ms", v / 1e6);
    if (std::fabs(v) < 1e3 && v != 0) return printf_string("%.1f ns", v);   // a timer's tick, not "0.0 µs"
    return printf_string("%.1f µs", v / 1e3);
  }
  if (unit == "bytes") return printf_string("%.1f MiB", v / (1024.0 * 1024.0));
  if (unit == "bytes/s") return printf_string("%.1f GB/s", v / 1e9);
  if (unit == "FLOP/s") return printf_string("%.1f GFLOP/s", v / 1e9);
  if (unit == "Hz") return printf_string("%.3f GHz", v / 1e9);
  if (is_count(unit)) return counted(v, unit);
  if (is_word_unit(unit) && v == std::floor(v) && std::fabs(v) < 1e15) return counted(v, unit);
  return printf_string("%.2f", v) + (unit.empty() ? "" : " " + unit);
}

std::string format_size(double bytes) {
  static const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  while (std::fabs(bytes) >= 1024 && u < 4) bytes /= 1024, ++u;
  return (bytes == std::floor(bytes) ? printf_string("%.0f", bytes) : printf_string("%.1f", bytes)) + " " + kUnits[u];
}

std::string format_as_printed(double v, const std::string& unit) {
  // The scale and the decimals format_value uses for this unit; other units print as they are.
  double scale = 0;
  int decimals = 1;
  std::string suffix;
  if (unit == "bytes/s") scale = 1e9, suffix = " GB/s";
  else if (unit == "FLOP/s") scale = 1e9, suffix = " GFLOP/s";
  else if (unit == "%") scale = 1, decimals = 2, suffix = " %";
  else if (unit == "ns" && std::fabs(v) >= 1e3 && std::fabs(v) < 1e6) scale = 1e3, suffix = " µs";
  else if (unit == "ns" && std::fabs(v) >= 1e6) scale = 1e6, decimals = 3, suffix = " ms";
  if (scale == 0) return format_value(v, unit);
  const double shown = v / scale;
  // More decimals only where the source printed them (38.13 GB/s, not 38.1).
  while (decimals < 4) {
    const double p = std::pow(10.0, decimals);
    if (std::fabs(std::round(shown * p) / p - shown) <= 1e-9 * std::max(1.0, std::fabs(shown))) break;
    ++decimals;
  }
  char format[16];
  std::snprintf(format, sizeof format, "%%.%df", decimals);
  return printf_string(format, shown) + suffix;
}

bool is_scaled_unit(const std::string& unit) {
  for (const char* u : {"%", "ns", "bytes", "bytes/s", "FLOP/s", "Hz", "B"})
    if (unit == u) return true;
  return false;
}

std::string format_comparison(double measured, double source, const std::string& unit) {
  if (unit == "%") {
    const double d = measured - source;
    return printf_string("%+.2f pts", d);
  }
  if (source == 0) return "—";
  return printf_string("x%.2f", measured / source);
}

}  // namespace labbook::report
