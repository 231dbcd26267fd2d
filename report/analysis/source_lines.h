#pragma once
/// @file
/// A kernel line by line: CUPTI's per-instruction SASS counts (Kernel::sass) summed to the
/// source lines they came from, with what each line's global, shared and local accesses cost
/// against the least they could, and a short explanation for a student of the line that
/// wastes the most. Instructions without line information (code built without -lineinfo)
/// stay one row per instruction, named by function and offset.
#include <cstdint>
#include <string>
#include <vector>

#include "labbook/model/measurement.h"

namespace labbook::report {

/// The SASS metrics a source view reads, by the names the GPU gives them. The collector asks
/// for these; the ideal of global sectors comes as one metric on some GPUs and as loads plus
/// stores on others (either is read).
const std::vector<std::string>& source_line_metrics();

/// A line's global accesses of one kind: executions of the instructions that moved sectors,
/// the sectors, and the least that would carry the same bytes.
struct GlobalAccesses {
  double requests = 0, sectors = 0, ideal_sectors = 0;
};

struct SourceLine {
  std::string file;                  ///< "" when the instructions carry no line information
  int line = 0;
  std::string function;              ///< mangled; the first function seen at this line
  std::vector<std::uint32_t> pc_offsets;   ///< its instructions, in order
  double instructions = 0;           ///< warp instructions executed on the line
  double global_requests = 0;        ///< executions of instructions that moved global sectors
  double global_sectors = 0, global_ideal_sectors = 0;
  /// The same split by kind, where the GPU counts load and store instructions per instruction
  /// (smsp__sass_inst_executed_op_global_ld/_st): a line that loads and stores (c[i] = a[k])
  /// would otherwise average a misaligned load's 5 sectors with an aligned store's 4.
  GlobalAccesses loads, stores;
  double shared_requests = 0;        ///< executions of instructions that used shared-memory wavefronts
  double shared_wavefronts = 0, shared_ideal_wavefronts = 0;
  double local_sectors = 0;          ///< spills and per-thread arrays indexed at run time

  double excess_sectors() const;     ///< global sectors beyond the ideal (0 at best)
  double excess_wavefronts() const;  ///< shared wavefronts beyond the ideal
  bool moves_memory() const;         ///< any global, shared or local traffic
  std::string where() const;         ///< "transpose.cu:42", or "function+0x1a0" without line info
};

struct SourceProfile {
  /// Lines that move memory, most excess global sectors first, then most excess shared
  /// wavefronts, then most local sectors, then source order.
  std::vector<SourceLine> lines;
  bool line_info = false;            ///< at least one instruction had a file and line
  double excess_sectors = 0;         ///< the kernel's, over every line
  /// Metrics source_line_metrics() names that no instruction reported (the GPU lacks them,
  /// or they were not collected) and without which a column reads "—"; the load/store
  /// counts, which only split a line's average, are not among them.
  std::vector<std::string> missing;
};

/// Sums the instructions (of one kernel, or of several launches of it) to source lines.
SourceProfile source_profile(const std::vector<SassInstruction>& instructions);

/// One or two sentences on what the line's numbers mean and which access pattern gives them,
/// "" for a line whose accesses cost what they must.
std::string source_line_explanation(const SourceLine&, double kernel_excess_sectors);

}  // namespace labbook::report
