#pragma once
/// @file
/// The "Lines that move memory" table of one kernel (source_lines.h) for a sheet: each line's
/// source text where the file can be read, requests, sectors per request against the ideal,
/// excess sectors and their share, shared wavefronts per request against the ideal, local
/// sectors, and the explanation of each line as a numbered note.
#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

#include "sheet.h"
#include "source_lines.h"

namespace labbook::report {

/// The table of `profile`'s first `max_lines` lines (all when 0), each line's text read from
/// its source file where that can be read.
Table source_lines_table(const SourceProfile& profile, std::size_t max_lines);

/// Every line of `profile`, machine-readable (a sheet's data): file, line, function, global
/// requests, sectors and ideal sectors, shared requests, wavefronts and ideal, local sectors.
nlohmann::json source_lines_json(const SourceProfile& profile);

}  // namespace labbook::report
