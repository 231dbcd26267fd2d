#pragma once
// The CLI's subcommands; each returns the process exit code and throws labbook::Error for
// failures the user should read about.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <optional>
#include <string>
#include <vector>

#include "exit_codes.h"
#include "labbook/model/error.h"
#include "labbook/model/measurement.h"

namespace labbook::grading {
struct Exercise;
}  // namespace labbook::grading

namespace labbook::cli {

struct RunOptions {
  std::string lab;
  std::string out_dir = "reports";
  bool force_recorded = false;
  bool force = false;   ///< replace a sheet even by a worse one (report/sheet/sheet_standing.h)
  std::vector<std::string> lab_args;
  std::string compare;   ///< a measurement (or "recorded") to set this run beside; "" for none
};
int run_lab(const RunOptions&);

struct RenderOptions {
  std::string lab;
  std::string measurement;
  std::string out_dir = "reports";
  std::string note;
  bool force = false;
};
int render_lab(const RenderOptions&);

/// Two measurements of one lab side by side (report/sheet/comparison.h): writes
/// <out>/<lab>.compare.{md,html,json} and prints what differs. "recorded" names the lab's recording.
struct CompareOptions {
  std::string lab, a, b;
  std::string out_dir = "reports";
};
int compare_lab(const CompareOptions&);

/// Runs the lab's [[check]]s and the timeline checks on a measurement (default: the lab's
/// recording); prints one line per check. 0 when all pass, 1 otherwise.
int check_lab(const std::string& lab, const std::string& measurement);

/// Every lab's sheet (measured here, or from its recording) with a navigation bar, then
/// index.{md,html}. A lab that fails is named in the index; the exit code is then 1.
int workbook(const RunOptions&);

/// A command-line mistake: main() prints it and exits with kExitUsage.
class UsageError : public Error {
 public:
  using Error::Error;
};

/// Runs `command` (returning an exit code), printing what it throws as labbook's one-line error:
/// a UsageError exits with kExitUsage, labbook::Error and the file system's errors kExitFailure.
template <typename Command>
int with_errors_reported(Command command) {
  try {
    return command();
  } catch (const UsageError& e) {
    std::fprintf(stderr, "labbook: %s\n", e.what());
    return kExitUsage;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "labbook: %s\n", e.what());
    return kExitFailure;
  }
}

struct ProfileOptions {
  std::vector<std::string> metrics;
  std::vector<std::string> nvtx, kernels;   ///< globs choosing the launches that get metrics
  std::optional<std::uint64_t> launch_skip, launch_count;
  bool no_trace = false;                    ///< metrics run only
  bool source = false;                      ///< --source: a run counting each instruction, for per-line tables
  std::string replay = "auto";              ///< --replay auto|application|kernel
  std::string cache_control = "all";        ///< --cache-control all|none
  std::string out_dir;
  std::vector<std::string> command;
};
/// Returns profile_exit_code() of the program's exit code (128 + signal when a signal ended
/// it). Throws UsageError for a command-line mistake before running anything.
int profile(const ProfileOptions&);

/// write_profile_outputs() for a measurement file.
int summarize(const std::string& measurement, const std::string& out_dir);

/// The exercise named on the command line; a name that matches none is a UsageError.
grading::Exercise exercise_named(const std::string& name);
/// Writes the exercise's starter file and instructions into `out_dir`.
int exercise_handout(const std::string& exercise, const std::string& out_dir);
/// `labbook exercise --list`: every exercise, one line each (id, lab, title).
int list_exercises();

/// The catalog; with `lab`, that lab's CUPTI metrics as one comma-separated line; with
/// `all_cupti`, every CUPTI metric of the catalog that way.
int list_metrics(const std::string& lab, bool all_cupti);

}  // namespace labbook::cli
