#pragma once
/// @file
/// The source run's CUPTI side (`labbook profile --source`): CUPTI's SASS metrics count, per
/// instruction of each selected launch, what report/source_lines.h sums to source lines. The
/// metrics a GPU offers are listed at run time (cuptiSassMetricsGetMetrics) and only those
/// are asked for (the report names the ones it lacks); each selected launch is waited for
/// and its counts flushed, so that they are its own; a PC's file and line come from the
/// cubin the driver loaded (cuptiGetSassToSourceCorrelation; code built with -lineinfo).
/// Run on GH100 (H200, CUPTI 13.0): tools/probes/sass_metric_names.cu lists the metrics offered.
#include <cuda.h>
#include <cupti.h>

#include <cstdint>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "issue_log.h"
#include "labbook/model/measurement.h"

namespace labbook::profiler {

class SassSource {
 public:
  /// `wanted`: SASS metric names to collect where the GPU offers them.
  /// `verbose`: each flush's record count on stderr (LABBOOK_VERBOSE=1).
  SassSource(std::vector<std::string> wanted, IssueLog& issues, bool verbose = false);

  /// A module the driver loaded: its cubin is kept, by CRC, for the source lines.
  void on_module_loaded(const CUpti_ModuleResourceData& module);

  /// Before a selected launch on `ctx`: earlier work waited for, collection configured for
  /// its device (once) and enabled for this launch alone. False when it cannot be (said
  /// once, as an issue).
  bool before_launch(CUcontext ctx);

  /// After that launch returned: waits for the context's work, keeps the counts as launch
  /// `launch`'s and disables collection.
  void after_launch(CUcontext ctx, std::uint64_t launch);

  /// Collection disabled on `ctx` (after a launch, or the context going away).
  void finish(CUcontext ctx);

  /// Each collected launch's instructions.
  std::map<std::uint64_t, std::vector<SassInstruction>> results() const;

 private:
  bool enable(CUcontext ctx);                        ///< configured (once per device) and enabled
  static void wait_for(CUcontext ctx);               ///< the context's work done
  std::vector<SassInstruction> take(CUcontext ctx);  ///< flushes what was counted since the last take
  void line_of(std::uint32_t crc, SassInstruction& i);

  std::vector<std::string> wanted_;
  IssueLog& issues_;
  bool verbose_;
  mutable std::mutex mutex_;
  std::map<std::uint64_t, std::string> metric_names_;      ///< metric id -> name
  std::set<std::uint32_t> configured_devices_;
  std::set<CUcontext> enabled_;
  bool failed_ = false;
  std::map<std::uint32_t, std::string> cubins_;            ///< CRC -> cubin bytes
  std::map<std::uint64_t, std::vector<SassInstruction>> results_;
};

}  // namespace labbook::profiler
