#pragma once
/// @file
/// What a submission's objects may reference and define: an allow-list. Student host code
/// runs in the harness's process (submission.o is linked after harness.o), so whatever it
/// may call or replace could forge the harness's verdict. The submission may reference only
/// what grading/allowed_symbols.toml allows (nvcc's generated code, the C++ ABI, libm) and
/// the CUDA runtime calls its exercise lists; it may define only the exercise's entry points
/// and functions of its own that nothing else sees (nothing that replaces a library's or
/// the harness's symbol); and nothing of it may run before or after main, other than nvcc's
/// registration of the file with the CUDA runtime.
///
/// The caller runs, on the files nvcc made:
///   readelf -SW -sW -rW submission.o      (nvcc -O3 -rdc=true -arch=ARCH -c submission.cu -keep)
///   readelf -sW harness.o
///   readelf -sW submission.cubin          (the cubin -keep left: what submission.o holds)
///   objdump -d --no-show-raw-insn submission.o
///   submission.ptx                        (the PTX -keep left)
#include <set>
#include <string>
#include <vector>

namespace labbook::grading {

/// Names allowed exactly, or by how they begin.
struct NameSet {
  std::set<std::string> names;
  std::vector<std::string> prefixes;
  bool contains(const std::string& name) const;
};

/// What one exercise's submission may reference and define.
struct SymbolPolicy {
  std::vector<std::string> host_calls;     ///< the exercise's own CUDA runtime calls, e.g. cudaMalloc
  /// The functions the student writes, which alone may be visible to the harness: a mangled
  /// name, or a plain one matching the function's name ("transpose" is _Z9transposePKfPfjj).
  std::vector<std::string> entry_points;
  // The base list, from allowed_symbols.toml:
  NameSet host;        ///< [[host]]: what any submission's host code may reference
  NameSet device;      ///< [[device]]: what its device code may reference
  NameSet generated;   ///< [[generated]]: definitions nvcc and the compiler make in every object
  NameSet sections;    ///< [[sections]]: the sections submission.o may have
};

/// The base list from `base_toml_path` plus the exercise's part. Throws labbook::Error
/// "path:line: ..." on a malformed file.
SymbolPolicy load_symbol_policy(const std::string& base_toml_path, std::vector<std::string> host_calls,
                                std::vector<std::string> entry_points);

/// Why the host object is refused, for the student ("" when it is not): `submission_readelf`
/// is `readelf -SW -sW -rW submission.o`, `harness_readelf` is `readelf -sW harness.o` (a
/// definition of any name harness.o defines or references, other than an entry point,
/// would replace the harness's at link time). A call to exit from code nothing can call (the
/// host body nvcc gives a `__device__` function) is not one.
std::string object_problem(const SymbolPolicy& policy, const std::string& submission_readelf,
                           const std::string& harness_readelf);

/// Why the device code is refused ("" when it is not), from `readelf -sW` of the relocatable
/// cubin: host readelf does not show what device code calls.
std::string device_problem(const SymbolPolicy& policy, const std::string& cubin_readelf);

/// Why the device code's instructions are refused ("" when they are not), from its PTX: copies
/// by the Tensor Memory Accelerator (cp.async.bulk, cp.reduce.async.bulk) move global and
/// shared memory past every counter an exercise is graded on.
std::string device_instruction_problem(const std::string& ptx);

/// Why the object's host code is refused, from `objdump -d` of it, or "" when it is fine: a
/// system call made by the submission's own instructions (inline assembly) goes around every
/// call object_problem() looks for.
std::string host_code_problem(const std::string& objdump_output);

}  // namespace labbook::grading
