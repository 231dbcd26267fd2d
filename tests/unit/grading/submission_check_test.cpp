// The allow-list of what a submission's objects may reference and define, on real objects:
// each fixture in tests/unit/grading/fixtures/submission_check/ is a small .cu file and the readelf
// and objdump text of what nvcc 13 made of it (regenerate.sh there remakes them), so this
// test needs no nvcc. harness.readelf is a tiny stand-in harness's symbols.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <initializer_list>

#include "labbook/model/atomic_file.h"
#include "labbook/model/error.h"
#include "submission_check.h"

using labbook::grading::device_problem;
using labbook::grading::host_code_problem;
using labbook::grading::load_symbol_policy;
using labbook::grading::object_problem;
using labbook::grading::SymbolPolicy;

namespace {

const std::string kSource = LABBOOK_SOURCE_DIR;
const std::string kBaseList = kSource + "/grading/allowed_symbols.toml";

std::string fixture(const std::string& name) {
  return labbook::read_file(kSource + "/tests/unit/grading/fixtures/submission_check/" + name);
}

/// Lab 5's exercise (host code launching kernels) and lab 4's (one kernel).
const SymbolPolicy& lab5() {
  static const SymbolPolicy p = load_symbol_policy(
      kBaseList, {"cudaMalloc", "cudaFree", "cudaMemcpyToSymbol", "cudaFuncSetAttribute", "cudaGetLastError"},
      {"transpose"});
  return p;
}
const SymbolPolicy& lab4() {
  static const SymbolPolicy p = load_symbol_policy(kBaseList, {}, {"add_points"});
  return p;
}

/// object_problem() of NAME.readelf, beside the stand-in harness.
std::string host(const std::string& name, const SymbolPolicy& p = lab5()) {
  return object_problem(p, fixture(name + ".readelf"), fixture("harness.readelf"));
}

/// A refusal, a sentence, that names every one of `parts`.
testing::AssertionResult refused(const std::string& message, std::initializer_list<std::string> parts) {
  if (message.empty() || message.back() != '.') return testing::AssertionFailure() << "not a refusal: \"" << message << "\"";
  for (const auto& part : parts)
    if (message.find(part) == std::string::npos)
      return testing::AssertionFailure() << "\"" << message << "\" does not say \"" << part << "\"";
  return testing::AssertionSuccess();
}

}  // namespace

TEST(SubmissionCheck, TheStartersAndFairSubmissionsPass) {
  EXPECT_EQ(host("lab5_starter"), "");
  EXPECT_EQ(device_problem(lab5(), fixture("lab5_starter.cubin.readelf")), "");
  EXPECT_EQ(host_code_problem(fixture("lab5_starter.objdump")), "");
  EXPECT_EQ(host("lab4_kernel", lab4()), "");
  EXPECT_EQ(device_problem(lab4(), fixture("lab4_kernel.cubin.readelf")), "");
  // A template kernel, __constant__ and __device__ variables, std::vector, std::sort, libm.
  EXPECT_EQ(host("idioms"), "");
  EXPECT_EQ(device_problem(lab5(), fixture("idioms.cubin.readelf")), "");
  // printf, assert, malloc and child grids in device code.
  EXPECT_EQ(host("child_grids"), "");
  EXPECT_EQ(device_problem(lab5(), fixture("child_grids.cubin.readelf")), "");
}

TEST(SubmissionCheck, ADeviceHelpersUnreachableHostBodyIsNotACallToExit) {
  // nvcc gives a plain __device__ function a host body calling exit(1), which nothing calls.
  EXPECT_EQ(host("device_helper"), "");
  EXPECT_EQ(device_problem(lab5(), fixture("device_helper.cubin.readelf")), "");
  // A __host__ __device__ function that host code calls is host code: its exit is refused.
  EXPECT_TRUE(refused(host("host_device_exit"), {"calls exit"}));
  // So is exit in an entry point, which the harness calls.
  EXPECT_TRUE(refused(host("calls_exit"), {"calls exit"}));
}

TEST(SubmissionCheck, BaseListLeavesOutWhatCouldForgeTheVerdict) {
  for (const char* name : {"exit", "_exit", "atexit", "__cxa_atexit", "open", "fopen", "write", "getenv", "dlsym",
                           "syscall", "signal", "pthread_create", "cudaDeviceSetLimit", "cudaDeviceSetCacheConfig",
                           "cudaDeviceReset", "cudaCtxResetPersistingL2Cache", "cudaStreamSetAttribute"})
    EXPECT_FALSE(lab5().host.contains(name)) << name;
  EXPECT_TRUE(lab5().host.contains("__cudaRegisterLinkedBinary_0223d65f_15_lab5_starter_cu_b84544e2"));
  EXPECT_TRUE(lab5().device.contains("__UDT_OFFSET"));
}

TEST(SubmissionCheck, CodeBeforeOrAfterMainIsRefused) {
  EXPECT_TRUE(refused(host("global_object", lab4()), {"runs code before main"}));
  EXPECT_TRUE(refused(host("constructor_function", lab4()), {"runs code before main"}));
  EXPECT_TRUE(refused(host("destructor_function", lab4()), {"section .fini_array", "runs at exit"}));
  EXPECT_TRUE(refused(host("fini_array_entry", lab4()), {"section .fini_array", "runs at exit"}));
  EXPECT_TRUE(refused(host("custom_section", lab4()), {"section mysec", "is not one nvcc makes"}));
  EXPECT_TRUE(refused(host("ifunc"), {"runs code before main", "tiles(int) is an ifunc"}));
  EXPECT_TRUE(refused(host("static_local_destructor"), {"calls __cxa_atexit, which"}));
  EXPECT_TRUE(refused(host("calls_atexit"), {"calls cudaDeviceReset and atexit"}));
  EXPECT_EQ(host("defines_main", lab4()), "the submission defines main: the harness owns main.");

  // .init_array's one entry must point at nvcc's registration function itself.
  const std::string starter = fixture("lab5_starter.readelf");
  const std::string entry = "R_X86_64_64            0000000000000000 .text.startup + 0\n";
  ASSERT_NE(starter.find(entry), std::string::npos);
  std::string moved = starter;
  moved.replace(moved.find(entry), entry.size(), "R_X86_64_64            0000000000000000 .text.startup + 8\n");
  EXPECT_TRUE(refused(object_problem(lab5(), moved, fixture("harness.readelf")), {"runs code before main"}));
}

TEST(SubmissionCheck, CallsOutsideTheListAreRefusedByName) {
  EXPECT_EQ(host("calls_fopen"),
            "the submission calls fopen, fwrite and fclose, which this exercise does not allow (it may call cudaMalloc, "
            "cudaFree, cudaMemcpyToSymbol, cudaFuncSetAttribute, cudaGetLastError, the C math library and its own "
            "kernels).");
  EXPECT_TRUE(refused(host("persisting_l2"), {"calls cudaDeviceSetLimit"}));
  const SymbolPolicy l2 = load_symbol_policy(kBaseList, {"cudaDeviceSetLimit"}, {"transpose"});
  EXPECT_EQ(host("persisting_l2", l2), "") << "an exercise may allow a call the base list does not";
  const SymbolPolicy many = load_symbol_policy(kBaseList, {"cudaMalloc", "cudaFree", "cudaMemcpy", "cudaMemset",
                                                           "cudaMallocAsync", "cudaFreeAsync", "cudaStreamCreate"},
                                               {"transpose"});
  EXPECT_TRUE(refused(host("persisting_l2", many),
                      {"calls cudaDeviceSetLimit, which this exercise does not allow (it may call the C math library, its "
                       "own kernels and 7 CUDA runtime calls (cudaMalloc, cudaFree, cudaMemcpy, cudaMemset, "
                       "cudaMallocAsync, cudaFreeAsync, ...))."}));
  EXPECT_TRUE(refused(host("reference_kernel"), {"uses transposeTiled(float const*, float*, unsigned int, unsigned int), "
                                                  "which it does not define"}));
}

TEST(SubmissionCheck, DeviceCodeMayCallOnlyWhatItDefinesAndTheDeviceRuntime) {
  EXPECT_EQ(host("extern_device_function", lab4()), "") << "host readelf does not show device calls";
  EXPECT_TRUE(refused(device_problem(lab4(), fixture("extern_device_function.cubin.readelf")),
                      {"device code calls helper(float), which it does not define"}));
}

TEST(SubmissionCheck, DefinitionsThatReplaceALibraryOrTheHarnessAreRefused) {
  EXPECT_TRUE(refused(host("c_linkage", lab4()), {"defines getenv, a function with C linkage"}));
  EXPECT_TRUE(refused(host("std_namespace"), {"defines std::tiles(unsigned int), which belongs to the C++ library"}));
  EXPECT_TRUE(refused(host("operator_new", lab4()), {"defines operator new(unsigned long), which belongs to the C++ library"}));
  EXPECT_TRUE(refused(host("harness_symbol"),
                      {"replaces the harness's transposeTiled(float const*, float*, unsigned int, unsigned int)"}));
  const std::string other_harness = "Symbol table '.symtab' contains 1 entry:\n"
                                    "    1: 0000000000000000     0 NOTYPE  GLOBAL DEFAULT  UND _Z9transposePKfPfjj\n";
  EXPECT_EQ(object_problem(lab5(), fixture("harness_symbol.readelf"), other_harness), "")
      << "a hidden kernel of its own is fine where the harness has no such name";
  const std::string in_labbook =
      fixture("lab4_kernel.readelf") + "    43: 0000000000000160    14 FUNC    GLOBAL HIDDEN    2 _ZN7labbook5checkEPKfj\n";
  EXPECT_TRUE(refused(object_problem(lab4(), in_labbook, other_harness),
                      {"defines labbook::check(float const*, unsigned int) in namespace labbook"}));
  const std::string linker_symbol =
      fixture("lab4_kernel.readelf") + "    43: 0000000000000000     8 OBJECT  GLOBAL HIDDEN    5 __init_array_start\n";
  EXPECT_TRUE(refused(object_problem(lab4(), linker_symbol, other_harness),
                      {"defines __init_array_start, a name that the compiler, the C library and the linker keep"}));
}

TEST(SubmissionCheck, OnlyTheEntryPointsMayBeVisible) {
  EXPECT_TRUE(refused(host("visible_helper"), {"only the exercise's functions may be visible outside the file: make "
                                               "tiles(unsigned int, unsigned int) static"}));
  EXPECT_EQ(host("visible_helper", load_symbol_policy(kBaseList, {}, {"transpose", "tiles"})), "");
  EXPECT_EQ(host("visible_helper", load_symbol_policy(kBaseList, {}, {"transpose", "_Z5tilesjj"})), "")
      << "an entry point may be given mangled";
}

TEST(SubmissionCheck, WhatItCannotReadIsRefused) {
  const std::string harness = fixture("harness.readelf");
  const std::string listing = fixture("lab4_kernel.readelf") + "    43: 0000000000000000 0 FUNC GLOBAL\n";
  EXPECT_TRUE(refused(object_problem(lab4(), listing, harness), {"could not read", "43: 0000000000000000 0 FUNC GLOBAL"}));
  EXPECT_TRUE(refused(object_problem(lab4(), "", harness), {"could not read the submission's object"}))
      << "readelf printed nothing";
  EXPECT_TRUE(refused(object_problem(lab4(), fixture("lab4_kernel.readelf"), ""), {"could not read the harness's object"}));
  EXPECT_TRUE(refused(device_problem(lab4(), "readelf: Error: 'submission.cubin': No such file\n"), {"device code"}));
}

TEST(SubmissionCheck, ASystemCallOfItsOwnIsRefusedAndNamesTheFunction) {
  EXPECT_EQ(host("raw_syscall"), "") << "its symbols are fine; its instructions are not";
  const std::string problem = host_code_problem(fixture("raw_syscall.objdump"));
  EXPECT_NE(problem.find("makes a system call itself (syscall in "), std::string::npos) << problem;
  EXPECT_NE(problem.find("raw(long, long, long, long)"), std::string::npos) << problem;
  EXPECT_NE(host_code_problem("0000000000000000 <f>:\n   0:\tint    $0x80\n"), "");
  EXPECT_EQ(host_code_problem("0000000000000000 <syscall_free_name>:\n   0:\tcall   5 <syscall_count>\n"), "")
      << "a name is not an instruction";
}

TEST(SubmissionCheck, AMalformedBaseListIsReportedWithItsLine) {
  const std::string path =
      (std::filesystem::temp_directory_path() / ("allowed_symbols_" + std::to_string(::getpid()) + ".toml")).string();
  const auto error_for = [&](const std::string& text) -> std::string {
    labbook::write_file_atomically(path, text);
    try {
      load_symbol_policy(path, {}, {});
    } catch (const labbook::Error& e) {
      return e.what();
    }
    return "no error";
  };
  EXPECT_EQ(error_for("[[host]]\nnames = [\"memcpy\"]\n\n[[host]\n").rfind(path + ":4: ", 0), 0u);
  EXPECT_EQ(error_for("[[host]]\nnames = [\"memcpy\"]\n[[device]]\nname = [\"vprintf\"]\n").rfind(path + ":4: ", 0), 0u)
      << "a misspelt key";
  EXPECT_NE(error_for("[[sections]]\nprefixes = [\"\"]\n").find("empty prefix"), std::string::npos);
  std::remove(path.c_str());
  EXPECT_THROW(load_symbol_policy(path, {}, {}), labbook::Error) << "a missing file";
}

TEST(SubmissionCheck, RefusesCopiesByTheTensorMemoryAccelerator) {
  // nvcc -arch=sm_90 -ptx of a kernel with cp.async.bulk, cut to its lines that matter.
  const std::string tma = ".visible .entry _Z1kPKfPf(\n\t.param .u64 _Z1kPKfPf_param_0\n)\n{\n"
                          "\tcp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r3], [%rd1], 1024, [%r2];\n}\n";
  const std::string why = labbook::grading::device_instruction_problem(tma);
  EXPECT_NE(why.find("Tensor Memory Accelerator (cp.async.bulk in k(float const*, float*))"), std::string::npos) << why;
  EXPECT_NE(labbook::grading::device_instruction_problem(".func (.param .b32 r) _Z3sumPf(\n{\n\tcp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32 [%rd1], [%r1], 4;\n"),
            "");
  // cp.async (LDGSTS) is counted, and plain loads are what the exercises teach.
  EXPECT_EQ(labbook::grading::device_instruction_problem(".visible .entry _Z1kv(\n{\n\tcp.async.ca.shared.global [%r1], [%rd1], 4;\n"
                                                         "\tld.global.f32 %f1, [%rd2];\n}\n"),
            "");
}
