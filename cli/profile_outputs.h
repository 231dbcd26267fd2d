#pragma once
/// @file
/// A profile's four outputs (trace.json.gz, timeline.svg, summary.{md,html,json},
/// measurements.json), written side by side; a trace-only run's can be written while its
/// program ends, and then only those the exit changed are written again.
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

/// The outputs written while the program ended, and what they show of it.
struct EarlyOutputs {
  std::vector<OutputSeconds> written;
  /// What the summary and the measurement show of the run besides its records: they are
  /// written again where the exit changed it.
  ProgramRun program;
  std::vector<Issue> issues;
  std::size_t pictures = 0;   ///< the summary's
};

/// The folder in an output folder where the summary and the measurement written early wait
/// until the exit says they are right, so that no file shows an exit code not yet given.
constexpr const char* kEarlyFolder = ".written-before-the-exit";

/// `out_dir`'s kEarlyFolder.
inline std::string early_folder(const std::string& out_dir) { return out_dir + "/" + kEarlyFolder; }

/// Writes the four outputs of `m` side by side: trace.json.gz and timeline.svg into
/// `out_dir`, the summary and the measurement into its kEarlyFolder. Says nothing of a
/// failure: write_profile_outputs() tries that output again and reports it.
EarlyOutputs write_outputs_early(const Measurement& m, const std::string& out_dir);

/// Removes what write_outputs_early() wrote into `out_dir`: its kEarlyFolder, and the trace's
/// outputs listed in `early`. For a run whose last measurement is not the one they were
/// written from, or that collected nothing.
void discard_early_outputs(const EarlyOutputs& early, const std::string& out_dir);

/// Writes the four outputs for `m`, each on its own, side by side, but for those in `early`
/// that still show `m`: trace.json.gz and timeline.svg always do; the others, moved into
/// `out_dir` now, where the exit changed neither the run's facts nor its issues. The
/// kEarlyFolder goes. One that fails is said on stderr and as an issue in the measurement
/// (the summary and the measurement are written again when another failed). Returns how
/// many of the four are written; `pictures` receives the summary's pictures, `seconds` how
/// long each output took.
int write_profile_outputs(const Measurement& m, const std::string& out_dir, std::size_t* pictures = nullptr,
                          std::vector<OutputSeconds>* seconds = nullptr, const EarlyOutputs& early = {});

/// What write_profile_outputs() writes when nothing fails: trace, timeline, summary, measurement.
constexpr int kProfileOutputs = 4;
/// Their files besides the summary's pictures: summary.{md,html,json}, labbook.css,
/// timeline.svg, trace.json.gz, measurements.json.
constexpr std::size_t kProfileFiles = 7;

}  // namespace labbook::cli
