#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "labbook/model/measurement.h"

namespace labbook::cli {

struct ProfileRequest {
  std::vector<std::string> command;        ///< program and its arguments
  std::vector<std::string> cupti_metrics;  ///< empty: trace only
  bool trace = true;                       ///< false: the metrics run alone (needs metrics)
  std::string work_dir;                    ///< where the per-run files go
  /// Which launches get metrics (the collector's LABBOOK_NVTX etc.); all when empty.
  std::vector<std::string> nvtx, kernels;
  std::optional<std::uint64_t> launch_skip, launch_count;
};

struct ProfileOutcome {
  Measurement measurement;   ///< trace and metrics merged; exit code filled in
  int exit_code = 0;         ///< of the trace run, or of the metrics run if that failed
};

/// Runs the program under the collector: a trace run, then (if metrics are asked for and
/// the trace run succeeded) a metrics run, and merges them; with `trace` off, the metrics
/// run alone. Throws labbook::Error when the collector wrote nothing.
ProfileOutcome profile_program(const ProfileRequest& request);

}  // namespace labbook::cli
