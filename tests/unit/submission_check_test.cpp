// Refusing submissions that run code of their own outside the kernel: readelf output of real
// objects built by nvcc 13 (a plain kernel file, one with a global object, one with main), and
// objdump output for system calls made by inline assembly.
#include <gtest/gtest.h>

#include "submission_check.h"

using labbook::grading::host_code_problem;
using labbook::grading::object_problem;

namespace {
const char* kSymbols = R"(
Symbol table '.symtab' contains 24 entries:
   Num:    Value          Size Type    Bind   Vis      Ndx Name
    21: 0000000000000010   320 FUNC    GLOBAL DEFAULT    2 _Z10add_pointsPKfS0_PfS1_j
)";
const char* kCudaRegistrationOnly = R"(
Relocation section '.rela.init_array' at offset 0x22e8 contains 1 entry:
    Offset             Info             Type               Symbol's Value  Symbol's Name + Addend
0000000000000000  0000001000000001 R_X86_64_64            0000000000000000 .text.startup + 0
)";
const char* kGlobalObject = R"(
Relocation section '.rela.init_array' at offset 0x26b8 contains 2 entries:
    Offset             Info             Type               Symbol's Value  Symbol's Name + Addend
0000000000000000  0000001000000001 R_X86_64_64            0000000000000000 .text.startup + 0
0000000000000008  0000001000000001 R_X86_64_64            0000000000000000 .text.startup + 70

Relocation section '.rela.text' at offset 0x2700 contains 3 entries:
    Offset             Info             Type               Symbol's Value  Symbol's Name + Addend
0000000000000010  0000001000000002 R_X86_64_PC32          0000000000000000 .text + 4
)";
const char* kMain = "    22: 000000000000002e    11 FUNC    GLOBAL DEFAULT    1 main\n";
const char* kCallsMain = "    23: 0000000000000000     0 NOTYPE  GLOBAL DEFAULT  UND main\n";
}  // namespace

TEST(SubmissionCheck, AKernelFileWithCudasRegistrationPasses) {
  EXPECT_EQ(object_problem(std::string(kSymbols) + kCudaRegistrationOnly), "");
  EXPECT_EQ(object_problem(kCallsMain), "") << "a reference to main is not a definition";
}

TEST(SubmissionCheck, CodeBeforeMainOrAMainOfItsOwnIsRefused) {
  EXPECT_NE(object_problem(std::string(kSymbols) + kGlobalObject).find("runs code before main"), std::string::npos);
  EXPECT_NE(object_problem(std::string(kMain) + kCudaRegistrationOnly).find("defines main"), std::string::npos);
}

TEST(SubmissionCheck, ReplacingALibraryOrHarnessFunctionIsRefused) {
  const auto line = [](const char* bind, const char* ndx, const char* name) {
    return std::string("    30: 0000000000000000    10 FUNC    ") + bind + " DEFAULT  " + ndx + " " + name + "\n";
  };
  EXPECT_EQ(object_problem(line("GLOBAL", "4", "_Z9transposePKfPfjj") + line("GLOBAL", "4", "_Z24__device_stub__Z5childPfPf") +
                           line("GLOBAL", "29", "__fatbinwrap_0e9910e6_4_s_cu_6b5b5f4f") +
                           line("WEAK", "9", "_ZNSt8_Rb_treeIPKfSt4pairIKS1_iESt10_Select1stIS4_ESt4lessIS1_ESaIS4_EE8_M_eraseEPSt13_Rb_tree_nodeIS4_E")),
            "")
      << "the student's functions, nvcc's stubs and std instantiations are fine";
  const std::string device_variable = "    31: 0000000000000000     4 OBJECT  GLOBAL DEFAULT   20 calls\n";
  EXPECT_EQ(object_problem(device_variable + "    32: 0000000000000000     8 OBJECT  WEAK   HIDDEN   25 DW.ref.__gxx_personality_v0\n"),
            "")
      << "a __device__ variable's host shadow and the compiler's own are fine";
  EXPECT_EQ(object_problem("    33: 0000000000000000     8 OBJECT  GLOBAL DEFAULT   20 stdout\n"),
            "the submission defines stdout, which belongs to the C library.");
  EXPECT_EQ(object_problem(line("WEAK", "4", "cudaDeviceSynchronize")),
            "the submission defines cudaDeviceSynchronize, a function with C linkage that the C library, the CUDA runtime or "
            "the harness may use: give it a C++ name or make it static.");
  EXPECT_EQ(object_problem(line("GLOBAL", "4", "_ZNK7labbook3lab9Tolerance7acceptsEdd")),
            "the submission defines labbook::lab::Tolerance::accepts(double, double) const in namespace labbook, which is "
            "the harness's.");
  EXPECT_NE(object_problem(line("GLOBAL", "4", "_Znwm")).find("operator new(unsigned long), which belongs to the C++ library"),
            std::string::npos);
}

TEST(SubmissionCheck, CallsThatCouldForgeTheVerdictAreRefused) {
  const auto undefined = [](const char* name) {
    return std::string("    40: 0000000000000000     0 NOTYPE  GLOBAL DEFAULT  UND ") + name + "\n";
  };
  EXPECT_EQ(object_problem(undefined("cudaMalloc") + undefined("__cxa_guard_acquire") + undefined("_Znwm")), "");
  EXPECT_EQ(object_problem(undefined("fopen")),
            "the submission calls fopen, which opens or changes files: a submission reads and writes no files (the "
            "harness owns input and output).");
  EXPECT_NE(object_problem(undefined("exit")).find("calls exit, which ends the program"), std::string::npos);
  EXPECT_NE(object_problem(undefined("getenv")).find("reads or changes the environment"), std::string::npos);
  EXPECT_NE(object_problem(undefined("_ZNSt14basic_ofstreamIcSt11char_traitsIcEEC1EPKcSt13_Ios_Openmode")).find("opens files"),
            std::string::npos);
  EXPECT_NE(object_problem(undefined("fopen") + kMain).find("defines main"), std::string::npos) << "main is said first";
}

TEST(SubmissionCheck, ASystemCallOfItsOwnIsRefusedAndNamesTheFunction) {
  const std::string clean =
      "0000000000000000 <_Z9transposePKfPfjj>:\n"
      "   0:\tendbr64\n"
      "   4:\tpush   %rbp\n"
      "   8:\tcall   15 <_Z9transposePKfPfjj+0x15>\n"
      "  10:\tret\n";
  EXPECT_EQ(host_code_problem(clean), "");
  const std::string raw = clean +
                          "\n0000000000000020 <_ZN12_GLOBAL__N_13rawEllll>:\n"
                          "  20:\tmov    %rdi,%rax\n"
                          "  23:\tsyscall\n"
                          "  25:\tret\n";
  EXPECT_EQ(host_code_problem(raw),
            "the submission makes a system call itself (syscall in (anonymous namespace)::raw(long, long, long, long)): "
            "it may only compute, through the CUDA runtime");
  EXPECT_NE(host_code_problem("0000000000000000 <f>:\n   0:\tint    $0x80\n"), "");
  EXPECT_EQ(host_code_problem("0000000000000000 <syscall_free_name>:\n   0:\tcall   5 <syscall_count>\n"), "")
      << "a name is not an instruction";
}
