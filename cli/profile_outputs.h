#pragma once
/// @file
/// A profile's four outputs (trace.json.gz, timeline.svg, summary.{md,html,json},
/// measurements.json), written side by side; the two drawn from the trace alone can be
/// written first, while a trace-only run's program ends.
#include <cstddef>
#include <string>
#include <vector>

#include "labbook/model/measurement.h"

namespace labbook::cli {

/// One output written, and how long it took (LABBOOK_VERBOSE).
struct OutputSeconds {
  std::string what;
  double seconds = 0;
  bool early = false;   ///< written while the program ended
};

/// Writes trace.json.gz and timeline.svg, which need nothing of `m` but its trace (no
/// program fields, no issues), side by side into `out_dir`. Returns those written; one that
/// fails is left for write_profile_outputs() to try again and report.
std::vector<OutputSeconds> write_trace_outputs(const Measurement& m, const std::string& out_dir);

/// Writes the four outputs for `m`, each on its own, side by side, but for those in
/// `written_early` (write_trace_outputs() given this measurement). One that fails is said on
/// stderr and as an issue in the measurement (the summary and the measurement are written
/// again when another failed). Returns how many of the four are written; `pictures` receives
/// the summary's pictures, `seconds` how long each output took.
int write_profile_outputs(const Measurement& m, const std::string& out_dir, std::size_t* pictures = nullptr,
                          std::vector<OutputSeconds>* seconds = nullptr,
                          const std::vector<OutputSeconds>& written_early = {});

/// What write_profile_outputs() writes when nothing fails: trace, timeline, summary, measurement.
constexpr int kProfileOutputs = 4;
/// Their files besides the summary's pictures: summary.{md,html,json}, labbook.css,
/// timeline.svg, trace.json.gz, measurements.json.
constexpr std::size_t kProfileFiles = 7;

}  // namespace labbook::cli
