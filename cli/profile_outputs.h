#pragma once
/// @file
/// A profile's four outputs (trace.json.gz, timeline.svg, summary.{md,html,json},
/// measurements.json), written side by side; a trace-only run's can be written while its
/// program ends, and then only those the exit changed are written again.
#include <cstddef>
#include <optional>
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
  /// Where the summary and the measurement wait until the exit says they are right, so that
  /// no file shows an exit code the program did not give.
  std::string staged;
  /// What the exit may add, as the summary and the measurement show it: they are written
  /// again where it did.
  std::vector<std::string> command;
  std::optional<int> exit_code;
  std::size_t issues = 0;
  std::size_t pictures = 0;   ///< the summary's
};

/// The folder in `out_dir` of the outputs written early that show the program.
constexpr const char* kEarlyFolder = ".written-before-the-exit";

/// Writes the four outputs of `m` side by side: trace.json.gz and timeline.svg into
/// `out_dir`, the summary and the measurement into its kEarlyFolder. Says nothing of a
/// failure: write_profile_outputs() tries that output again and reports it.
EarlyOutputs write_outputs_early(const Measurement& m, const std::string& out_dir);

/// Removes the folder of `early`'s outputs that show the program, for outputs written from a
/// measurement that was not the last (the file replaced after it was read).
void remove_staged(const EarlyOutputs& early);

/// Writes the four outputs for `m`, each on its own, side by side, but for those in `early`
/// that still show `m`: trace.json.gz and timeline.svg always do; the others, moved into
/// `out_dir` now, where `m`'s command, exit code and issues are those they were written for.
/// `early.staged` is removed. One that fails is said on stderr and as an issue in the
/// measurement (the summary and the measurement are written again when another failed).
/// Returns how many of the four are written; `pictures` receives the summary's pictures,
/// `seconds` how long each output took.
int write_profile_outputs(const Measurement& m, const std::string& out_dir, std::size_t* pictures = nullptr,
                          std::vector<OutputSeconds>* seconds = nullptr, const EarlyOutputs& early = {});

/// What write_profile_outputs() writes when nothing fails: trace, timeline, summary, measurement.
constexpr int kProfileOutputs = 4;
/// Their files besides the summary's pictures: summary.{md,html,json}, labbook.css,
/// timeline.svg, trace.json.gz, measurements.json.
constexpr std::size_t kProfileFiles = 7;

}  // namespace labbook::cli
