#pragma once
/// @file
/// The words a reader sees for each quantity labbook names: a column header, an axis, a row of
/// a summary ("Load efficiency", not "gld_efficiency"). One table for the catalog's metrics and
/// the derived quantities alike; the internal name stays in the JSON and the setup's list.
#include <string>

namespace labbook {

/// The quantity's label, e.g. "Load efficiency"; for a share of a peak ("flop_rate_sp_pct_of_peak")
/// the rate's label and "share of peak"; nullptr-free: a name without a label reads as its words.
std::string quantity_reader_label(const std::string& quantity);

/// Whether `quantity` has a label of its own in the table (a test checks every quantity does).
bool has_reader_label(const std::string& quantity);

}  // namespace labbook
