// Lab 3's kernels in the warp model (kernels/shared_memory_model.cpp): the wavefronts per
// request each experiment should show on this GPU (32 banks, whole warps) and on 000's
// compute capability 1.x (16 banks, half-warps).
#include <gtest/gtest.h>

#include <numeric>

#include "architecture.h"
#include "kernel_models.h"

using namespace labbook::warp;

namespace {
double per_request(const std::string& kernel, std::map<std::string, long long> params, const std::string& arch,
                   const char* quantity = "shared_load_transactions_per_request") {
  params.emplace("n", 4096);
  return *modelled_cost(kernel, {params, std::nullopt}, architecture(arch)).quantity(quantity);
}
}  // namespace

TEST(SharedMemoryModel, StridedWordsConflictByTheGcdWithTheBanks) {
  for (long long s = 1; s <= 33; ++s) {
    EXPECT_DOUBLE_EQ(per_request("sharedStride", {{"s", s}}, "sm_90"), static_cast<double>(std::gcd(s, 32LL))) << s;
    // Two half-warp requests per instruction on 16 banks, each gcd(s, 16) deep.
    EXPECT_DOUBLE_EQ(per_request("sharedStride", {{"s", s}}, "cc1x"), 2.0 * static_cast<double>(std::gcd(s, 16LL))) << s;
  }
}

TEST(SharedMemoryModel, BytesDoublesStructsAndBroadcast) {
  EXPECT_DOUBLE_EQ(per_request("sharedChar", {{"s", 1}}, "sm_90"), 1.0) << "bytes of one word are shared";
  EXPECT_DOUBLE_EQ(per_request("sharedChar", {{"s", 4}}, "sm_90"), 1.0);
  EXPECT_GT(per_request("sharedChar", {{"s", 1}}, "cc1x"), per_request("sharedChar", {{"s", 4}}, "cc1x"))
      << "000: char shared[tid] conflicts on compute capability 1.x, shared[4 * tid] does not";
  EXPECT_DOUBLE_EQ(per_request("sharedDouble", {}, "sm_90"), 2.0) << "256 bytes in two 128-byte wavefronts";
  EXPECT_DOUBLE_EQ(per_request("sharedStructXYZ", {}, "sm_90"), 1.0) << "stride of 3 words";
  EXPECT_DOUBLE_EQ(per_request("sharedStructXY", {}, "sm_90"), 2.0) << "stride of 2 words: lanes t and t + 16";
  EXPECT_DOUBLE_EQ(per_request("sharedStructFloatChar", {}, "sm_90"), 2.0);
  EXPECT_DOUBLE_EQ(per_request("sharedBroadcast", {}, "sm_90"), 1.0);
}

TEST(SharedMemoryModel, ReversalAndTile) {
  // Reversed stores stay in the same four sectors on sm_90; on compute capability 1.0 a
  // half-warp writing words out of order is served one word at a time.
  EXPECT_DOUBLE_EQ(per_request("reverseArrayBlock", {{"block", 256}}, "sm_90", "gst_transactions_per_request"), 4.0);
  EXPECT_DOUBLE_EQ(per_request("reverseArrayBlock", {{"block", 256}}, "cc1x", "gst_transactions_per_request"), 32.0);
  EXPECT_DOUBLE_EQ(per_request("reverseArrayBlockShared", {{"block", 256}}, "cc1x", "gst_transactions_per_request"), 2.0);
  EXPECT_DOUBLE_EQ(per_request("reverseArrayBlockShared", {{"block", 256}}, "sm_90", "shared_store_transactions_per_request"), 1.0);
  EXPECT_DOUBLE_EQ(per_request("tileColumnRead32", {}, "sm_90"), 32.0);
  EXPECT_DOUBLE_EQ(per_request("tileColumnRead33", {}, "sm_90"), 1.0);
  EXPECT_DOUBLE_EQ(per_request("tileColumnRead33", {}, "sm_90", "shared_store_transactions_per_request"), 1.0);
}
