#include <gtest/gtest.h>

#include <iterator>
#include <map>

#include <cupti_runtime_cbid.h>

#include "launch_call_records.h"

namespace labbook::profiler {
namespace {

// A fake of cuptiActivityEnableRuntimeApi: each call's last setting, and one call it refuses.
std::map<CUpti_CallbackId, int> g_records_on;
CUpti_CallbackId g_refused = 0;

CUptiResult fake_enable(CUpti_CallbackId cbid, std::uint8_t enable) {
  if (cbid == g_refused) return CUPTI_ERROR_NOT_INITIALIZED;
  g_records_on[cbid] = enable;
  return CUPTI_SUCCESS;
}

TEST(LaunchCallRecords, HostWorkAndCopiesAreNotLaunches) {
  EXPECT_FALSE(launches_a_kernel(CUPTI_RUNTIME_TRACE_CBID_cudaLaunchHostFunc_v10000)) << "host work";
  EXPECT_FALSE(launches_a_kernel(CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_v3020));
}

TEST(LaunchCallRecords, CuptisAreTurnedOffForEveryLaunchCall) {
  g_records_on.clear();
  g_refused = 0;
  EXPECT_TRUE(take_launch_call_records(fake_enable));
  // Every way the runtime launches a kernel, per stream kind: CUPTI's records of none are left on.
  const CUpti_CallbackId launches[] = {
      CUPTI_RUNTIME_TRACE_CBID_cudaLaunch_v3020, CUPTI_RUNTIME_TRACE_CBID_cudaLaunch_ptsz_v7000,
      CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000,
      CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000,
      CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000,
      CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernelMultiDevice_v9000,
      CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060,
      CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000, CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_ptsz_v13000};
  EXPECT_EQ(g_records_on.size(), std::size(launches)) << "only the launch calls are switched";
  for (CUpti_CallbackId cbid : launches) {
    EXPECT_TRUE(launches_a_kernel(cbid)) << cbid;
    ASSERT_EQ(g_records_on.count(cbid), 1u) << cbid;
    EXPECT_EQ(g_records_on.at(cbid), 0) << cbid;
  }
}

TEST(LaunchCallRecords, OneRefusalLeavesEveryLaunchCallToCupti) {
  g_records_on.clear();
  g_refused = CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000;
  EXPECT_FALSE(take_launch_call_records(fake_enable));
  for (const auto& [cbid, on] : g_records_on) EXPECT_EQ(on, 1) << cbid << " would be recorded by no one";
  EXPECT_EQ(g_records_on.at(CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000), 1)
      << "turned off before the refusal, and on again after it";
  g_refused = 0;
}

TEST(LaunchCallRecords, LeavingThemToCuptiTurnsEachBackOn) {
  g_records_on.clear();
  g_refused = 0;
  ASSERT_TRUE(take_launch_call_records(fake_enable));
  const std::size_t calls = g_records_on.size();
  leave_launch_call_records(fake_enable);
  EXPECT_EQ(g_records_on.size(), calls);
  for (const auto& [cbid, on] : g_records_on) EXPECT_EQ(on, 1) << cbid;
}

}  // namespace
}  // namespace labbook::profiler
