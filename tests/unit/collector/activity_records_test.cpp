// API call records made into the data model's (activity_records.h): named from CUPTI's own
// table of runtime calls, which needs no GPU, and put in the order they began.
#include <gtest/gtest.h>

#include <cupti_runtime_cbid.h>

#include "activity_records.h"

using namespace labbook::profiler;

TEST(ActivityRecords, ApiCallsComeInTheOrderTheyBeganWhateverOrderTheyWereRecordedIn) {
  // CUPTI's buffer of copies, then the collector's own records of launches, as take() joins them.
  const std::vector<ApiCallRecord> records = {
      {CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_v3020, 7, 2, 100, 150},
      {CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_v3020, 7, 6, 400, 450},
      {CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, 7, 4, 200, 210},
      {CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, 8, 5, 200, 205},
      {CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, 7, 8, 500, 510},
  };
  const NamedApiCalls named(records);
  std::vector<labbook::ApiCall> calls;
  labbook::ApiCall into;   // one call made in turn, as the measurement's writer makes them
  for (std::size_t i = 0; i < named.size(); ++i) {
    named.make(i, into);
    calls.push_back(into);
  }
  ASSERT_EQ(calls.size(), records.size());
  std::vector<std::uint32_t> order;
  for (const auto& c : calls) order.push_back(c.correlation);
  EXPECT_EQ(order, (std::vector<std::uint32_t>{2, 4, 5, 6, 8})) << "by start; calls that began together as recorded";
  EXPECT_EQ(calls[0].name, "cudaMemcpy");
  EXPECT_EQ(calls[1].name, "cudaLaunchKernel");
  EXPECT_EQ(calls[2].thread, 8u);
  EXPECT_EQ(calls[4].start_ns, 500u);
  EXPECT_EQ(calls[4].end_ns, 510u);
  EXPECT_EQ(named.rows().earliest_ns, 100u);
}
