// Lab 3's kernels in the warp model (kernels/shared_memory_model.cpp): the wavefronts per
// request each experiment should show on this GPU (32 banks, whole warps) and on 000's
// compute capability 1.x (16 banks, half-warps).
#include <gtest/gtest.h>

#include <numeric>

#include "architecture.h"
#include "kernel_models.h"
#include "shared_memory_indexing.h"

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

TEST(SharedMemoryModel, DoubleSplitIntoTwoIntArrays) {
  // n = 4096 threads of 128: 128 warps, each reading its element kSplitReads times.
  const double reads = 128.0 * labbook::kernels::kSplitReads;
  // 32 banks: a double read is 256 bytes in two wavefronts; the split's two int reads are
  // one wavefront each. The same wavefronts in all, no conflict either way.
  EXPECT_DOUBLE_EQ(per_request("sharedDoubleReads", {}, "sm_90"), 2.0);
  EXPECT_DOUBLE_EQ(per_request("sharedDoubleHiLo", {}, "sm_90"), 1.0);
  EXPECT_DOUBLE_EQ(per_request("sharedDoubleReads", {}, "sm_90", "shared_load_transactions"), 2.0 * reads);
  EXPECT_DOUBLE_EQ(per_request("sharedDoubleHiLo", {}, "sm_90", "shared_load_transactions"), 2.0 * reads);
  EXPECT_DOUBLE_EQ(per_request("sharedDoubleReads", {}, "sm_90", "shared_load_bank_conflicts"), 0.0);
  EXPECT_DOUBLE_EQ(per_request("sharedDoubleHiLo", {}, "sm_90", "shared_load_bank_conflicts"), 0.0);
  // 000's 16 banks: the double's two 32-bit requests each read every other word, 2-way per
  // half-warp (8 transactions where 4 would do); the split's are conflict-free (2 + 2).
  EXPECT_DOUBLE_EQ(per_request("sharedDoubleReads", {}, "cc1x"), 8.0);
  EXPECT_DOUBLE_EQ(per_request("sharedDoubleHiLo", {}, "cc1x"), 2.0);
  EXPECT_DOUBLE_EQ(per_request("sharedDoubleReads", {}, "cc1x", "shared_load_transactions"), 8.0 * reads);
  EXPECT_DOUBLE_EQ(per_request("sharedDoubleHiLo", {}, "cc1x", "shared_load_transactions"), 4.0 * reads);
  EXPECT_DOUBLE_EQ(per_request("sharedDoubleHiLo", {}, "cc1x", "shared_load_bank_conflicts"), 0.0);
}

TEST(SharedMemoryModel, ThroughputKernelOneBankOrAll) {
  namespace k = labbook::kernels;
  // n = 4096 threads of 256: 128 warps, each making rounds x loads-per-round loads.
  const double loads = 128.0 * k::kBandwidthRounds * k::kBandwidthLoadsPerRound;
  EXPECT_DOUBLE_EQ(per_request("sharedBandwidth", {{"s", 1}}, "sm_90"), 1.0) << "32 consecutive words";
  EXPECT_DOUBLE_EQ(per_request("sharedBandwidth", {{"s", 1}}, "sm_90", "shared_load_transactions"), loads);
  EXPECT_DOUBLE_EQ(per_request("sharedBandwidth", {{"s", 32}}, "sm_90"), 32.0) << "every lane in one bank";
  EXPECT_DOUBLE_EQ(per_request("sharedBandwidth", {{"s", 1}}, "cc1x"), 2.0) << "two half-warps";
  EXPECT_DOUBLE_EQ(per_request("sharedBandwidth", {{"s", 32}}, "cc1x"), 32.0) << "16 per half-warp";
  // Stride 32 stays inside the kernel's array.
  EXPECT_LT(k::bandwidth_word(k::kBandwidthThreads - 1, k::kBandwidthLoadsPerRound - 1, 32), k::kBandwidthWords);
}

TEST(SharedMemoryModel, SecondDynamicArrayOffsets) {
  namespace k = labbook::kernels;
  // 002's b = &a[aSize] with floats, and doubles after shorts rounded up to 8 bytes.
  EXPECT_EQ(k::second_array_offset(k::kFirstElements * 4, 4), 500u);
  EXPECT_EQ(k::second_array_offset(k::kFirstElements * 2, 8), 256u);
  EXPECT_EQ(k::mirrored_element(0, k::kFirstElements), k::kFirstElements - 1) << "a's last element is read";
}
