#pragma once
// The CLI's subcommands; each returns the process exit code and throws labbook::Error for
// failures the user should read about.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "labbook/model/measurement.h"

namespace labbook::cli {

struct RunOptions {
  std::string lab;
  std::string out_dir = "reports";
  bool force_recorded = false;
  std::vector<std::string> lab_args;
};
int run_lab(const RunOptions&);

struct RenderOptions {
  std::string lab;
  std::string measurement;
  std::string out_dir = "reports";
  std::string note;
};
int render_lab(const RenderOptions&);

/// Exit code for "skipped: no GPU", as the GPU tests use it.
inline constexpr int kExitNoGpu = 77;

struct ProfileOptions {
  std::vector<std::string> metrics;
  std::vector<std::string> nvtx, kernels;   ///< globs choosing the launches that get metrics
  std::optional<std::uint64_t> launch_skip, launch_count;
  bool no_trace = false;                    ///< metrics run only
  std::string out_dir;
  std::vector<std::string> command;
};
/// Returns the profiled program's exit code (128 + signal when a signal ended it).
int profile(const ProfileOptions&);

/// Writes summary.{md,html,json}, timeline.svg, trace.json and measurements.json for `m`.
void write_profile_outputs(const Measurement& m, const std::string& out_dir);
/// write_profile_outputs() for a measurement file.
int summarize(const std::string& measurement, const std::string& out_dir);

/// The catalog; with `lab`, that lab's CUPTI metrics as one comma-separated line; with
/// `all_cupti`, every CUPTI metric of the catalog that way.
int list_metrics(const std::string& lab, bool all_cupti);

}  // namespace labbook::cli
