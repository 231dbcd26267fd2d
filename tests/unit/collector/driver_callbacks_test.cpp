// The collector's subscriptions without a GPU: each driver callback listed once with its role
// and the stream its parameters name, apart from the graph-exec calls (so dispatch is never
// ambiguous), and every enabling call's failure turned into an issue that says what is missed.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "callback_switches.h"
#include "driver_callbacks.h"
#include "graph_exec_calls.h"

using namespace labbook::profiler;

TEST(DriverCallbacks, EachIsListedOnceAndNoneIsAGraphExecCall) {
  std::set<CUpti_CallbackId> seen;
  for (const DriverCallback& call : driver_callbacks()) {
    EXPECT_TRUE(seen.insert(call.id).second) << "callback " << call.id << " listed twice";
    EXPECT_EQ(find_driver_callback(call.id), &call);
  }
  for (CUpti_CallbackId id : graph_exec_calls())
    EXPECT_EQ(find_driver_callback(id), nullptr) << "callback " << id << " is both a graph-exec call and another role";
  EXPECT_EQ(find_driver_callback(CUPTI_DRIVER_TRACE_CBID_cuMemcpy), nullptr);
}

namespace {
CUstream stream_of_call(CUpti_CallbackId id, const void* params) { return find_driver_callback(id)->stream(params); }
}  // namespace

TEST(DriverCallbacks, LaunchesAndCapturesReadTheStreamTheyName) {
  const auto stream = reinterpret_cast<CUstream>(0x1234);
  cuLaunchKernel_params launch{};
  launch.hStream = stream;
  EXPECT_EQ(stream_of_call(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, &launch), stream);
  cuLaunchKernel_ptsz_params per_thread{};
  EXPECT_EQ(stream_of_call(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz, &per_thread), CU_STREAM_PER_THREAD)
      << "a _ptsz call's stream 0 is the thread's own";
  CUlaunchConfig config{};
  config.hStream = stream;
  cuLaunchKernelEx_params ex{};
  ex.config = &config;
  EXPECT_EQ(stream_of_call(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx, &ex), stream);
  cuGraphLaunch_params graph{};
  graph.hStream = stream;
  EXPECT_EQ(stream_of_call(CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch, &graph), stream);
  EXPECT_EQ(find_driver_callback(CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch)->role, DriverCallRole::kGraphLaunch);
  cuStreamBeginCapture_v2_params begin{};
  begin.hStream = stream;
  EXPECT_EQ(stream_of_call(CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2, &begin), stream);
  EXPECT_EQ(find_driver_callback(CUPTI_DRIVER_TRACE_CBID_cuStreamEndCapture_ptsz)->role, DriverCallRole::kEndCapture);
  for (const DriverCallback& call : driver_callbacks()) {
    const bool names_a_stream = call.role == DriverCallRole::kBeginCapture || call.role == DriverCallRole::kEndCapture ||
                                call.role == DriverCallRole::kGraphLaunch;
    if (names_a_stream) {
      EXPECT_NE(call.stream, nullptr) << "callback " << call.id << " names a stream";
    }
    if (call.role == DriverCallRole::kManagedMemory || call.role == DriverCallRole::kGraphInstantiate) {
      EXPECT_EQ(call.stream, nullptr) << "callback " << call.id;
    }
  }
}

namespace {
CUpti_CallbackId g_refused = 0;
std::vector<CUpti_CallbackId> g_enabled;
CUptiResult fake_enable(std::uint32_t, CUpti_SubscriberHandle, CUpti_CallbackDomain, CUpti_CallbackId id) {
  if (id == g_refused) return CUPTI_ERROR_NOT_SUPPORTED;
  g_enabled.push_back(id);
  return CUPTI_SUCCESS;
}
CUptiResult fake_domain(std::uint32_t, CUpti_SubscriberHandle, CUpti_CallbackDomain domain) {
  return domain == CUPTI_CB_DOMAIN_NVTX ? CUPTI_ERROR_INVALID_PARAMETER : CUPTI_SUCCESS;
}
}  // namespace

TEST(CallbackSwitches, EachRefusalBecomesAnIssueNamingWhatIsMissed) {
  IssueLog issues;
  g_refused = CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel;
  g_enabled.clear();
  CallbackSwitches on(nullptr, issues, fake_domain, fake_enable);
  on.domain(CUPTI_CB_DOMAIN_RUNTIME_API, "runtime calls are not followed");
  for (const DriverCallback& call : driver_callbacks()) on.callback(CUPTI_CB_DOMAIN_DRIVER_API, call.id, "launches are missed");
  EXPECT_EQ(on.failures(), 1u);
  EXPECT_EQ(g_enabled.size(), driver_callbacks().size() - 1) << "a refusal stops nothing else";
  on.domain(CUPTI_CB_DOMAIN_NVTX, "NVTX ranges are not recorded");
  EXPECT_EQ(on.failures(), 2u);
  const auto found = issues.snapshot();
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].code, "callback_not_enabled");
  EXPECT_NE(found[0].message.find("cuptiEnableCallback failed: CUPTI_ERROR_NOT_SUPPORTED"), std::string::npos) << found[0].message;
  EXPECT_NE(found[0].message.find("(driver API callback " + std::to_string(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel) +
                                  "): launches are missed"),
            std::string::npos)
      << found[0].message;
  EXPECT_NE(found[1].message.find("cuptiEnableDomain failed: CUPTI_ERROR_INVALID_PARAMETER"), std::string::npos);
  EXPECT_NE(found[1].message.find("(NVTX callbacks): NVTX ranges are not recorded"), std::string::npos) << found[1].message;
}
