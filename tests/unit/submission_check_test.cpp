// Refusing submissions that run code of their own outside the kernel: readelf output of real
// objects built by nvcc 13 (a plain kernel file, one with a global object, one with main).
#include <gtest/gtest.h>

#include "submission_check.h"

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
