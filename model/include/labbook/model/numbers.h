#pragma once
/// @file
/// The number helpers every part of labbook shares: one number through a printf format, with a
/// given count of decimals, and the median of a sample.
#include <optional>
#include <string>
#include <vector>

namespace labbook {

/// One number through a printf format ("%.1f %%"; "%.*f" is not supported): the one place
/// labbook calls snprintf for a decimal number a person reads.
std::string format_number(const char* printf_format, double value);
/// `value` with `decimals` digits after the point ("%.*f").
std::string with_decimals(double value, int decimals);

/// The median of `samples` (the mean of the middle two for an even count); nullopt for none.
std::optional<double> median(std::vector<double> samples);

}  // namespace labbook
