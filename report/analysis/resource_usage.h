#pragma once
// The compiler's resource report for a lab program's kernels, as ptxas -v printed it when
// the program was built (cmake/capture_ptxas.sh keeps it in build/labs/PROGRAM.ptxas.txt):
// registers, barriers, stack frame, spill stores and loads, shared and constant memory.
#include <map>
#include <string>
#include <vector>

namespace labbook::report {

/// One kernel (entry function) of the report.
struct KernelResources {
  std::string function;          ///< mangled name, as launches record it (Kernel::mangled)
  std::string architecture;      ///< e.g. "sm_90"
  int registers = 0;
  int barriers = 0;
  long stack_bytes = 0;          ///< stack frame
  long spill_store_bytes = 0, spill_load_bytes = 0;
  long shared_bytes = 0;         ///< static shared memory ("smem")
  std::map<int, long> constant_bytes;   ///< bank -> bytes ("cmem[N]"); empty when ptxas printed none
};

/// Parses ptxas -v output (lines "ptxas info : ..." and "N bytes stack frame, ..."); other
/// lines are ignored. Kernels in the order ptxas compiled them; a function compiled for
/// several architectures appears once per architecture.
std::vector<KernelResources> parse_ptxas_report(const std::string& text);

}  // namespace labbook::report
