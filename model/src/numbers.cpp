#include "labbook/model/numbers.h"

#include <algorithm>
#include <cstdio>

namespace labbook {

std::string format_number(const char* printf_format, double value) {
  char buf[64];
  std::snprintf(buf, sizeof buf, printf_format, value);
  return buf;
}

std::string with_decimals(double value, int decimals) {
  char format[16];
  std::snprintf(format, sizeof format, "%%.%df", decimals);
  return format_number(format, value);
}

std::optional<double> median(std::vector<double> samples) {
  if (samples.empty()) return std::nullopt;
  std::sort(samples.begin(), samples.end());
  const std::size_t n = samples.size();
  return n % 2 ? samples[n / 2] : (samples[n / 2 - 1] + samples[n / 2]) / 2.0;
}

}  // namespace labbook
