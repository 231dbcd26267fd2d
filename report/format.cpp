#include "format.h"

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
                        "FLOP", "kernels"})
    if (unit == u) return true;
  return false;
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
  if (is_count(unit)) return with_thousands(std::llround(v)) + " " + unit;
  return printf_string("%.2f", v) + (unit.empty() ? "" : " " + unit);
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
