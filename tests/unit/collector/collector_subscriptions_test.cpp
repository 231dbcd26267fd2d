// Which callbacks each kind of run turns on, through a fake of CUPTI's enabling calls.
#include <cstdint>
#include <set>
#include <utility>

#include <gtest/gtest.h>

#include "collector_subscriptions.h"
#include "driver_callbacks.h"
#include "graph_exec_calls.h"

namespace labbook::profiler {
namespace {

using Enabled = std::set<std::pair<CUpti_CallbackDomain, CUpti_CallbackId>>;
Enabled g_callbacks;
std::set<CUpti_CallbackDomain> g_domains;
std::size_t g_calls = 0;

CUptiResult fake_callback(std::uint32_t enable, CUpti_SubscriberHandle, CUpti_CallbackDomain domain, CUpti_CallbackId id) {
  EXPECT_EQ(enable, 1u);
  g_callbacks.insert({domain, id});
  ++g_calls;
  return CUPTI_SUCCESS;
}
CUptiResult fake_domain(std::uint32_t enable, CUpti_SubscriberHandle, CUpti_CallbackDomain domain) {
  EXPECT_EQ(enable, 1u);
  g_domains.insert(domain);
  ++g_calls;
  return CUPTI_SUCCESS;
}

/// The callbacks `parts` turns on; fails the test if one is turned on twice.
Enabled subscribed(const CollectedParts& parts) {
  g_callbacks.clear();
  g_domains.clear();
  g_calls = 0;
  IssueLog issues;
  CallbackSwitches on(nullptr, issues, fake_domain, fake_callback);
  subscribe(on, parts);
  EXPECT_EQ(g_calls, g_callbacks.size() + g_domains.size()) << "a callback turned on twice";
  EXPECT_EQ(g_domains, (std::set<CUpti_CallbackDomain>{CUPTI_CB_DOMAIN_NVTX, CUPTI_CB_DOMAIN_RUNTIME_API}));
  EXPECT_TRUE(issues.snapshot().empty());
  return g_callbacks;
}

bool has(const Enabled& e, CUpti_CallbackDomain domain, CUpti_CallbackId id) { return e.count({domain, id}) > 0; }

TEST(CollectorSubscriptions, EveryRunFollowsLaunchesCapturesGraphsAndTeardown) {
  const Enabled e = subscribed({});
  for (const DriverCallback& call : driver_callbacks())
    EXPECT_EQ(has(e, CUPTI_CB_DOMAIN_DRIVER_API, call.id), call.role != DriverCallRole::kManagedMemory) << "driver callback " << call.id;
  for (CUpti_CallbackId id : graph_exec_calls()) EXPECT_TRUE(has(e, CUPTI_CB_DOMAIN_DRIVER_API, id)) << "graph exec call " << id;
  EXPECT_TRUE(has(e, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING));
  EXPECT_FALSE(has(e, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_MODULE_LOADED));
  EXPECT_FALSE(has(e, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_CONTEXT_CREATED));
}

TEST(CollectorSubscriptions, EachPartAddsOnlyItsOwn) {
  const Enabled base = subscribed({});
  const auto added = [&base](const CollectedParts& parts) {
    Enabled extra;
    for (const auto& c : subscribed(parts))
      if (!base.count(c)) extra.insert(c);
    return extra;
  };
  Enabled managed;
  for (const DriverCallback& call : driver_callbacks())
    if (call.role == DriverCallRole::kManagedMemory) managed.insert({CUPTI_CB_DOMAIN_DRIVER_API, call.id});
  ASSERT_FALSE(managed.empty());
  EXPECT_EQ(added({true, false, false}), managed) << "a trace follows unified memory's calls";
  EXPECT_EQ(added({false, true, false}), (Enabled{{CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_MODULE_LOADED}}));
  EXPECT_EQ(added({false, false, true}), (Enabled{{CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_CONTEXT_CREATED}}));
}

}  // namespace
}  // namespace labbook::profiler
