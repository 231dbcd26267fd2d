// NVTX callbacks read into ranges (profiler/nvtx_callbacks.h), from made-up CUPTI callback
// data: every way a program opens and closes a range, each message and payload type.
#include <gtest/gtest.h>

#include <nvtx3/nvToolsExt.h>
#include <generated_nvtx_meta.h>

#include "nvtx_callbacks.h"

using labbook::profiler::NvtxTracker;
using labbook::profiler::record_nvtx_call;

namespace {

std::uint64_t g_clock = 0;
std::uint64_t tick() { return g_clock += 10; }

CUpti_NvtxData call_with(const void* params, const void* returned = nullptr) {
  CUpti_NvtxData call{};
  call.functionName = "nvtx";
  call.functionParams = params;
  call.functionReturnValue = returned;
  return call;
}

nvtxEventAttributes_t attributes(const char* message) {
  nvtxEventAttributes_t a{};
  a.version = NVTX_VERSION;
  a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  a.messageType = NVTX_MESSAGE_TYPE_ASCII;
  a.message.ascii = message;
  return a;
}

}  // namespace

TEST(NvtxCallbacks, PushesAndPopsNestOnTheirThread) {
  NvtxTracker nvtx;
  const nvtxRangePushA_params outer{"transpose"};
  nvtxEventAttributes_t inner_attr = attributes("size=1024");
  inner_attr.payloadType = NVTX_PAYLOAD_TYPE_INT32;
  inner_attr.payload.iValue = -7;
  const nvtxDomainRangePushEx_params inner{nullptr, {&inner_attr}};
  record_nvtx_call(nvtx, CUPTI_CBID_NVTX_nvtxRangePushA, call_with(&outer), 3, tick);
  record_nvtx_call(nvtx, CUPTI_CBID_NVTX_nvtxDomainRangePushEx, call_with(&inner), 3, tick);
  EXPECT_EQ(nvtx.path_of(nvtx.current_range(3)), "transpose/size=1024");
  EXPECT_EQ(nvtx.current_range(4), 0u) << "another thread has nothing open";
  record_nvtx_call(nvtx, CUPTI_CBID_NVTX_nvtxDomainRangePop, call_with(nullptr), 3, tick);
  record_nvtx_call(nvtx, CUPTI_CBID_NVTX_nvtxRangePop, call_with(nullptr), 3, tick);
  const auto ranges = nvtx.ranges();
  ASSERT_EQ(ranges.size(), 2u);
  EXPECT_EQ(ranges[1].payload, std::optional<double>(-7.0));
  EXPECT_FALSE(ranges[0].payload.has_value());
  EXPECT_EQ(*ranges[1].end_ns - ranges[1].start_ns, 10u) << "stamped when each call was made";
  EXPECT_EQ(*ranges[0].end_ns - ranges[0].start_ns, 30u);
}

TEST(NvtxCallbacks, StartedRangesEndByTheirIdOnAnyThread) {
  NvtxTracker nvtx;
  nvtxEventAttributes_t attr = attributes("copy");
  attr.payloadType = NVTX_PAYLOAD_TYPE_UNSIGNED_INT64;
  attr.payload.ullValue = 4096;
  const nvtxRangeStartEx_params start{&attr};
  const nvtxRangeId_t id = 42;
  record_nvtx_call(nvtx, CUPTI_CBID_NVTX_nvtxRangeStartEx, call_with(&start, &id), 1, tick);
  const nvtxRangeStartA_params unreturned{"lost"};
  record_nvtx_call(nvtx, CUPTI_CBID_NVTX_nvtxRangeStartA, call_with(&unreturned), 1, tick);
  const nvtxDomainRangeEnd_params end{nullptr, {id}};
  record_nvtx_call(nvtx, CUPTI_CBID_NVTX_nvtxDomainRangeEnd, call_with(&end), 2, tick);
  const auto ranges = nvtx.ranges();
  ASSERT_EQ(ranges.size(), 1u) << "a start whose id was not returned records nothing";
  EXPECT_EQ(ranges[0].name, "copy");
  EXPECT_TRUE(ranges[0].process_wide);
  EXPECT_EQ(ranges[0].payload, std::optional<double>(4096.0));
  EXPECT_TRUE(ranges[0].end_ns.has_value()) << "ended on another thread";
}

TEST(NvtxCallbacks, NamesWhatItCannotReadAndIgnoresOtherCalls) {
  NvtxTracker nvtx;
  nvtxEventAttributes_t wide = attributes(nullptr);
  wide.messageType = NVTX_MESSAGE_TYPE_UNICODE;
  const nvtxRangePushEx_params unicode{&wide};
  const nvtxRangePushEx_params none{nullptr};
  record_nvtx_call(nvtx, CUPTI_CBID_NVTX_nvtxRangePushEx, call_with(&unicode), 1, tick);
  record_nvtx_call(nvtx, CUPTI_CBID_NVTX_nvtxRangePushEx, call_with(&none), 1, tick);
  const nvtxMarkA_params mark{"mark"};
  record_nvtx_call(nvtx, CUPTI_CBID_NVTX_nvtxMarkA, call_with(&mark), 1, tick);
  const auto ranges = nvtx.ranges();
  ASSERT_EQ(ranges.size(), 2u) << "a mark is no range";
  EXPECT_EQ(ranges[0].name, "(unnamed)");
  EXPECT_EQ(ranges[1].name, "?");
}
