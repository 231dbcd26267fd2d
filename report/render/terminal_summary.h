#pragma once
/// @file
/// What `labbook run` prints: the sheet's rows that have a source value, with units, in
/// columns that line up, then each claim's verdict; one screen.
#include <string>

#include "sheet.h"

namespace labbook::report {

std::string terminal_summary(const Sheet& sheet);

}  // namespace labbook::report
