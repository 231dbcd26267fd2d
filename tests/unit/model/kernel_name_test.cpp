// A kernel's short name, from the demangled signature CUPTI reports: what sheets and ranges
// call a kernel launched outside any NVTX range.
#include <gtest/gtest.h>

#include "labbook/model/measurement.h"

using namespace labbook;

TEST(KernelShortName, DropsParametersAndReturnTypeButKeepsTemplateArguments) {
  EXPECT_EQ(kernel_short_name("readSegment(float const*, float*, unsigned int)"), "readSegment");
  EXPECT_EQ(kernel_short_name("void transposeShared<0>(float*, float const*, int)"), "transposeShared<0>");
  EXPECT_EQ(kernel_short_name("void ns::f<std::pair<int, int> >(int)"), "ns::f<std::pair<int, int> >");
  EXPECT_EQ(kernel_short_name("(anonymous namespace)::scale(float*)"), "(anonymous namespace)::scale");
  EXPECT_EQ(kernel_short_name("plain_c_kernel"), "plain_c_kernel");
  Kernel k;
  k.name = "copy(float*, float const*, int)";
  EXPECT_EQ(k.range_or_name(), "copy") << "a kernel outside NVTX is its own range";
  k.range = "transpose/naive";
  EXPECT_EQ(k.range_or_name(), "transpose/naive");
}
