#pragma once
/// @file
/// The source run's CUPTI side (`labbook profile --source`): CUPTI's SASS metrics count, per
/// instruction, what report/analysis/source_lines.h sums to source lines. The metrics a GPU offers are
/// listed at run time (cuptiSassMetricsGetMetrics) and only those are asked for (the report
/// names the ones it lacks); a PC's file and line come from the cubin the driver loaded
/// (cuptiGetSassToSourceCorrelation; code built with -lineinfo).
///
/// CUPTI 13.0 counts one function per enable: the first one launched after it, and only if
/// that is its first execution in the process; and it gives the counts once: after a flush,
/// later launches add nothing, even in a new enable/disable range
/// (tools/probes/sass_relaunch.cu, H100 and H200, 2026-11-27: of two kernels launched
/// alternately only the first is counted, with lazy or eager patching and module loading).
/// So a source run counts one kernel, enabled just before that kernel's first launch and
/// flushed once, when the context goes away or the program ends; its counts are the sums over
/// all its launches there, kept with the first of them. The first source run counts the first
/// kernel the filter chooses whose chosen launch is its first execution, and lists every
/// kernel chosen; the session then runs the program once per kernel not yet counted, naming it
/// (LABBOOK_SOURCE_KERNEL): a named kernel is counted from its first launch, chosen or not.
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
  /// `wanted`: SASS metric names to collect where the GPU offers them. `kernel`: the kernel
  /// to count (mangled name), or "" for the first one chosen at its first execution.
  /// `verbose`: each flush's record count on stderr (LABBOOK_VERBOSE=1).
  SassSource(std::vector<std::string> wanted, std::string kernel, IssueLog& issues, bool verbose = false);

  /// A module the driver loaded: its cubin is kept, by CRC, for the source lines.
  void on_module_loaded(const CUpti_ModuleResourceData& module);

  /// At each launch's entry, before it runs. `selected`: the launch matches the filter. The
  /// kernel to count enables collection on its context at its first launch (configured for
  /// its device); its later launches there are noted.
  void on_launch(CUcontext ctx, std::uint64_t launch, const std::string& mangled, bool selected);

  /// The kernels the filter chose so far (mangled names), in the order of their first chosen
  /// launches.
  std::vector<std::string> functions_chosen() const;

  /// The context's counts flushed and collection disabled (the context going away).
  void finish(CUcontext ctx);

  /// Every context's (the program's end).
  void finish_all();

  /// The counted function: the index of its first launch -> its instructions, summed over its
  /// launches, and how many launches those were.
  struct Counted {
    std::vector<SassInstruction> instructions;
    std::uint64_t launches = 0;
  };
  std::map<std::uint64_t, Counted> results() const;

 private:
  bool enable(CUcontext ctx);                        ///< configured for its device and enabled (once a run)
  std::vector<SassInstruction> take(CUcontext ctx);  ///< flushes what was counted
  void line_of(std::uint32_t crc, SassInstruction& i);

  std::vector<std::string> wanted_;
  std::string kernel_;                               ///< the kernel counted ("" until chosen)
  IssueLog& issues_;
  bool verbose_;
  mutable std::mutex mutex_;
  std::map<std::uint64_t, std::string> metric_names_;      ///< metric id -> name
  std::vector<std::string> chosen_;                  ///< selected functions, by first launch
  std::set<std::string> launched_;                   ///< every function launched so far
  CUcontext counting_ = nullptr;                     ///< the context collecting, once claimed
  bool done_ = false;                                ///< counted (or failed): never again
  std::vector<std::uint64_t> counted_launches_;      ///< the counted function's launches there
  std::map<std::uint32_t, std::string> cubins_;            ///< CRC -> cubin bytes
  std::map<std::uint64_t, Counted> results_;
};

}  // namespace labbook::profiler
