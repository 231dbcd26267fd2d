// The warp-level model against the figures and claims of the sources.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

#include "architecture.h"
#include "global_memory_indexing.h"
#include "global_cost.h"
#include "kernel_cost.h"
#include "kernel_models.h"
#include "labbook/model/error.h"
#include "shared_cost.h"

using namespace labbook::warp;

namespace {
/// Lab 4's kernels as the sources launched them: n elements, 512 threads per block.
KernelCost lab4_cost(const std::string& kernel, long long n, long long block, long long offset, const Architecture& arch) {
  return modelled_cost(kernel, {{{"n", n}, {"block", block}, {"offset", offset}}, std::nullopt}, arch);
}
const Architecture& sm90() { return architecture("sm_90"); }
const Architecture& fermi_ca() { return architecture("fermi_ca"); }
const Architecture& fermi_cg() { return architecture("fermi_cg"); }
const Architecture& cc1x() { return architecture("cc1x"); }

WarpAccess floats_from(std::uint64_t first_byte, Operation op = Operation::Load) {
  return strided(op, 4, first_byte, 4);
}
}  // namespace

TEST(GlobalModel, AlignedCoalescedLoadsAreFullyEfficientEverywhere) {
  for (const auto& arch : architectures()) {
    const GlobalCost c = global_cost(floats_from(0), arch);
    EXPECT_DOUBLE_EQ(c.efficiency_pct(), 100.0) << arch.id;
    EXPECT_DOUBLE_EQ(c.sectors, 4);
    EXPECT_DOUBLE_EQ(c.lines, 1);
  }
  EXPECT_DOUBLE_EQ(global_cost(floats_from(0), fermi_ca()).transactions, 1) << "one 128-byte line (figure 4-9)";
  EXPECT_DOUBLE_EQ(global_cost(floats_from(0), fermi_cg()).transactions, 4) << "four segments (figure 4-14)";
  EXPECT_DOUBLE_EQ(global_cost(floats_from(0), sm90()).transactions, 4);
}

TEST(GlobalModel, ALaneWiderThanSixteenBytesIsAnErrorNotASilentUndercount) {
  // 32 lanes of 32 bytes would touch 64 sectors and 32 lines: more than the model's room.
  EXPECT_THROW(global_cost(strided(Operation::Load, 32, 0, 32), sm90()), labbook::Error);
  EXPECT_THROW(global_cost(strided(Operation::Load, 0, 0, 4), sm90()), labbook::Error);
  EXPECT_DOUBLE_EQ(global_cost(strided(Operation::Load, 16, 0, 16), sm90()).sectors, 16) << "512 bytes";
}

TEST(GlobalModel, RandomLanesWithinOneAlignedLineStayFullyEfficient) {
  WarpAccess a = floats_from(0);
  std::mt19937 rng(7);
  std::shuffle(a.address.begin(), a.address.end(), rng);
  EXPECT_DOUBLE_EQ(global_cost(a, fermi_ca()).efficiency_pct(), 100.0);   // figure 4-10
  EXPECT_DOUBLE_EQ(global_cost(a, fermi_cg()).efficiency_pct(), 100.0);   // figure 4-15
  EXPECT_DOUBLE_EQ(global_cost(a, sm90()).efficiency_pct(), 100.0);
}

TEST(GlobalModel, MisalignedByElevenFloats) {
  const WarpAccess a = floats_from(44);
  const GlobalCost cached = global_cost(a, fermi_ca());
  EXPECT_DOUBLE_EQ(cached.transactions, 2) << "two 128-byte transactions (figure 4-11)";
  EXPECT_DOUBLE_EQ(cached.efficiency_pct(), 50.0);
  const GlobalCost uncached = global_cost(a, fermi_cg());
  EXPECT_DOUBLE_EQ(uncached.transactions, 5) << "five segments (figure 4-16)";
  EXPECT_GE(uncached.efficiency_pct(), 80.0);
  EXPECT_DOUBLE_EQ(global_cost(a, sm90()).efficiency_pct(), 80.0);
  EXPECT_DOUBLE_EQ(global_cost(a, sm90()).transactions_per_request(), 5.0);
}

TEST(GlobalModel, EveryLaneOnOneAddressUsesAThirtySecondOfALine) {
  const WarpAccess a = strided(Operation::Load, 4, 256, 0);
  EXPECT_DOUBLE_EQ(global_cost(a, fermi_ca()).efficiency_pct(), 3.125);   // figure 4-12
  EXPECT_DOUBLE_EQ(global_cost(a, fermi_cg()).efficiency_pct(), 12.5);
}

TEST(GlobalModel, ThirtyTwoScatteredWordsCostALineOrASegmentEach) {
  const WarpAccess a = strided(Operation::Load, 4, 0, 4096);
  EXPECT_DOUBLE_EQ(global_cost(a, fermi_ca()).transactions, 32);   // figure 4-13
  EXPECT_DOUBLE_EQ(global_cost(a, fermi_ca()).efficiency_pct(), 3.125);
  EXPECT_DOUBLE_EQ(global_cost(a, fermi_cg()).transactions, 32);   // figure 4-18: better than cached
  EXPECT_DOUBLE_EQ(global_cost(a, fermi_cg()).efficiency_pct(), 12.5);
}

TEST(GlobalModel, FermiStoresGroupSegmentsIntoTransactions) {
  // Figure 4-19: 128 consecutive aligned bytes, one four-segment transaction.
  const GlobalCost whole = global_cost(floats_from(0, Operation::Store), fermi_ca());
  EXPECT_DOUBLE_EQ(whole.transactions, 1);
  EXPECT_DOUBLE_EQ(whole.efficiency_pct(), 100.0);
  // Figure 4-20: scattered over 192 bytes, three one-segment transactions.
  WarpAccess scattered;
  scattered.op = Operation::Store;
  for (int l = 0; l < 24; ++l) {
    scattered.active[static_cast<std::size_t>(l)] = true;
    scattered.address[static_cast<std::size_t>(l)] = static_cast<std::uint64_t>(64 * (l / 8) + 4 * (l % 8));
  }
  const GlobalCost three = global_cost(scattered, fermi_ca());
  EXPECT_DOUBLE_EQ(three.transactions, 3);
  EXPECT_DOUBLE_EQ(three.bytes_moved, 96);
  // Figure 4-21: 64 aligned bytes, one two-segment transaction.
  const GlobalCost two = global_cost(strided(Operation::Store, 4, 0, 4, 16), fermi_ca());
  EXPECT_DOUBLE_EQ(two.transactions, 1);
  EXPECT_DOUBLE_EQ(two.bytes_moved, 64);
  // writeSegment at offset 11: a four-segment and a one-segment transaction, 80 %.
  std::vector<Transaction> parts;
  const GlobalCost offset11 = global_cost(floats_from(44, Operation::Store), fermi_ca(), &parts);
  EXPECT_DOUBLE_EQ(offset11.transactions, 2);
  ASSERT_EQ(parts.size(), 2u);
  EXPECT_EQ(parts[0].bytes, 128u);
  EXPECT_EQ(parts[1].bytes, 32u);
  EXPECT_DOUBLE_EQ(offset11.efficiency_pct(), 80.0);
  EXPECT_DOUBLE_EQ(global_cost(floats_from(44, Operation::Store), sm90()).transactions, 5);
}

TEST(GlobalModel, ComputeCapability1CoalescesByWordSizeAndAlignment) {
  // 004's table: 32-bit words need 64-byte alignment, 64-bit 128, 128-bit 256.
  EXPECT_DOUBLE_EQ(global_cost(strided(Operation::Load, 4, 64, 4), cc1x()).transactions, 2) << "one per half-warp";
  EXPECT_DOUBLE_EQ(global_cost(strided(Operation::Load, 4, 68, 4), cc1x()).transactions, 32) << "misaligned: serialized";
  EXPECT_DOUBLE_EQ(global_cost(strided(Operation::Load, 8, 128, 8), cc1x()).transactions, 2);
  EXPECT_DOUBLE_EQ(global_cost(strided(Operation::Load, 8, 64, 8), cc1x()).transactions, 32);
  EXPECT_DOUBLE_EQ(global_cost(strided(Operation::Load, 16, 256, 16), cc1x()).transactions, 4) << "two 128-byte per half-warp";
  WarpAccess swapped = strided(Operation::Load, 4, 0, 4);
  std::swap(swapped.address[0], swapped.address[1]);
  EXPECT_DOUBLE_EQ(global_cost(swapped, cc1x()).transactions, 17) << "lane k must read word k";
}

TEST(GlobalModel, SourceTransactionCountsForReadSegment) {
  // 003, « Résultats du profilage des NVPROF »: 2^20 floats, two loads per thread, L1 caching.
  struct Case { unsigned offset; double source; };
  for (const Case c : {Case{0, 65184}, Case{11, 131039}, Case{128, 65744}}) {
    const KernelCost cost = lab4_cost("readSegment", 1 << 20, 512, c.offset, fermi_ca());
    EXPECT_NEAR(*cost.quantity("gld_transactions"), c.source, 0.01 * c.source) << "offset " << c.offset;
  }
}

TEST(GlobalModel, Lab4OnThisGpu) {
  const KernelCost cost = lab4_cost("readSegment", 1 << 24, 512, 11, sm90());
  EXPECT_NEAR(*cost.quantity("gld_transactions_per_request"), 5.0, 1e-4);
  EXPECT_NEAR(*cost.quantity("gld_efficiency"), 80.0, 1e-3);
  EXPECT_NEAR(*cost.quantity("gld_transactions"), 5242876, 1) << "the recorded H100 value";
  const KernelCost aos = lab4_cost("simpleMathAoS", 1 << 23, 128, 0, sm90());
  EXPECT_DOUBLE_EQ(*aos.quantity("gld_efficiency"), 50.0);
  EXPECT_DOUBLE_EQ(*aos.quantity("gld_transactions_per_request"), 8.0);
  const KernelCost soa = lab4_cost("simpleMathSoA", 1 << 23, 128, 0, sm90());
  EXPECT_DOUBLE_EQ(*soa.quantity("gld_efficiency"), 100.0);
  EXPECT_THROW(kernel_models().find("nosuchKernel"), labbook::Error);
  // On the measured GPU the launch's own shape decides: 2^15 blocks of 512 threads.
  LaunchShape shape;
  shape.grid[0] = 1u << 15;
  shape.block[0] = 512;
  const KernelCost measured = modelled_cost("readSegment", {{{"offset", 11}}, shape}, sm90());
  EXPECT_NEAR(*measured.quantity("gld_transactions"), 5242876, 1);
}

TEST(GlobalModel, Lab4LoadAndStorePatternsOfTheSourcesFigures) {
  const long long n = 1 << 20;
  auto loads = [&](long long pattern, const Architecture& arch) {
    return modelled_cost("readPattern", {{{"n", n}, {"block", 512}, {"pattern", pattern}}, std::nullopt}, arch);
  };
  // Permuted within the warp's line (figures 4-10 and 4-15): nothing wasted anywhere.
  EXPECT_DOUBLE_EQ(*loads(0, sm90()).quantity("gld_transactions_per_request"), 4.0);
  EXPECT_DOUBLE_EQ(*loads(0, fermi_ca()).quantity("gld_transactions_per_request"), 1.0);
  EXPECT_DOUBLE_EQ(*loads(0, fermi_ca()).quantity("gld_efficiency"), 100.0);
  // One address (figure 4-12): a line on Fermi, a sector here.
  EXPECT_DOUBLE_EQ(*loads(1, fermi_ca()).quantity("gld_efficiency"), 3.125);
  EXPECT_DOUBLE_EQ(*loads(1, sm90()).quantity("gld_transactions_per_request"), 1.0);
  // Scattered (figures 4-13 and 4-18): 32 units per request; uncached Fermi did 4x better.
  EXPECT_DOUBLE_EQ(*loads(2, sm90()).quantity("gld_transactions_per_request"), 32.0);
  EXPECT_DOUBLE_EQ(*loads(2, sm90()).quantity("gld_efficiency"), 12.5);
  EXPECT_DOUBLE_EQ(*loads(2, fermi_ca()).quantity("gld_efficiency"), 3.125);
  EXPECT_DOUBLE_EQ(*loads(2, fermi_cg()).quantity("gld_efficiency"), 12.5);

  auto stores = [&](long long pattern, const Architecture& arch) {
    return modelled_cost("writePattern", {{{"n", n}, {"block", 512}, {"pattern", pattern}}, std::nullopt}, arch);
  };
  EXPECT_DOUBLE_EQ(*stores(0, fermi_ca()).quantity("gst_transactions_per_request"), 3.0) << "figure 4-20";
  EXPECT_DOUBLE_EQ(*stores(0, sm90()).quantity("gst_transactions_per_request"), 3.0);
  EXPECT_DOUBLE_EQ(*stores(1, fermi_ca()).quantity("gst_transactions_per_request"), 1.0) << "figure 4-21";
  EXPECT_DOUBLE_EQ(*stores(1, sm90()).quantity("gst_transactions_per_request"), 2.0);
  EXPECT_DOUBLE_EQ(*stores(0, sm90()).quantity("gst_efficiency"), 100.0);
  EXPECT_DOUBLE_EQ(*stores(0, sm90()).quantity("gld_transactions_per_request"), 3.0) << "24 lanes load 96 bytes";
}

TEST(GlobalModel, Lab4PermutedAndScatteredPatternsReadEveryWordOnce) {
  const unsigned n = 1u << 12;
  for (unsigned pattern : {0u, 2u}) {
    std::vector<int> reads(n, 0);
    for (unsigned i = 0; i < n; ++i) ++reads[labbook::kernels::pattern_load_index(pattern, i, n)];
    EXPECT_TRUE(std::all_of(reads.begin(), reads.end(), [](int r) { return r == 1; })) << "pattern " << pattern;
  }
}

TEST(KernelModels, LanePositionsFollowCudaThreadNumbering) {
  const unsigned block[3] = {16, 16, 1};
  const LanePosition p = lane_position(9, 5, block);   // warp 9: block 1 (8 warps per block), warp 1 in it
  EXPECT_EQ(p.block, 1u);
  EXPECT_EQ(p.x, 5u);
  EXPECT_EQ(p.y, 2u);
  EXPECT_TRUE(p.exists);
  const unsigned odd[3] = {20, 1, 1};                  // one warp per block, lanes 20..31 absent
  EXPECT_FALSE(lane_position(0, 20, odd).exists);
  EXPECT_EQ(lane_position(3, 7, odd).block, 3u);
}

TEST(SharedModel, StrideRuleWithSixteenAndThirtyTwoBanks) {
  // 000, V-A: float shared[s * tid]; with 16 banks per half-warp, a conflict only if s is
  // even (the extracted text says "odd", an error); with 32 banks the degree is gcd(s, 32).
  for (int s = 1; s <= 33; ++s) {
    const WarpAccess a = strided(Operation::Load, 4, 0, 4 * s);
    EXPECT_EQ(shared_cost(a, cc1x()).degree, std::gcd(s, 16)) << "stride " << s;
    EXPECT_EQ(shared_cost(a, cc1x()).degree > 1, s % 2 == 0) << "stride " << s;
    EXPECT_EQ(shared_cost(a, sm90()).degree, std::gcd(s, 32)) << "stride " << s;
  }
}

TEST(SharedModel, BroadcastAndMulticastWithinAWord) {
  const WarpAccess same = strided(Operation::Load, 4, 40, 0);
  EXPECT_EQ(shared_cost(same, cc1x()).degree, 1);
  EXPECT_EQ(shared_cost(same, sm90()).degree, 1);
  // Two words in one bank, each read by 16 lanes: multicast serves both in two passes.
  WarpAccess two = strided(Operation::Load, 4, 0, 0);
  for (std::size_t l = 16; l < 32; ++l) two.address[l] = 128;
  EXPECT_EQ(shared_cost(two, sm90()).wavefronts, 2);
}

TEST(SharedModel, TheCharDoubleAndStructTableOfSource000) {
  // char shared[tid]: shared[0..3] share a bank on CC 1.x; shared[4 * tid] does not.
  EXPECT_GT(shared_cost(strided(Operation::Load, 1, 0, 1), cc1x()).degree, 1);
  EXPECT_EQ(shared_cost(strided(Operation::Load, 1, 0, 4), cc1x()).degree, 1);
  EXPECT_EQ(shared_cost(strided(Operation::Load, 1, 0, 1), sm90()).degree, 1) << "multicast since Fermi";
  // double shared[tid]: two 32-bit requests at a stride of two words each.
  const SharedCost d = shared_cost(strided(Operation::Load, 8, 0, 8), cc1x());
  EXPECT_EQ(d.degree, 2);
  EXPECT_DOUBLE_EQ(d.wavefronts, 8.0) << "2 pieces x 2 half-warps x 2-way";
  EXPECT_DOUBLE_EQ(shared_cost(strided(Operation::Load, 8, 0, 8), sm90()).conflicts(), 0.0);
  // struct members read one float at a time at the struct's stride.
  EXPECT_EQ(shared_cost(strided(Operation::Load, 4, 0, 12), cc1x()).degree, 1) << "{float x, y, z}: no conflict";
  EXPECT_EQ(shared_cost(strided(Operation::Load, 4, 0, 8), cc1x()).degree, 2)
      << "{float x, y}: 2-way; the source's table says no conflict, the CUDA 2.x guide says conflict";
  EXPECT_EQ(shared_cost(strided(Operation::Load, 4, 0, 8), cc1x()).degree, 2) << "{float f; char c}: padded to 8 bytes";
}

TEST(Architectures, UnknownIdListsTheKnownOnes) {
  try {
    architecture("kepler");
    FAIL();
  } catch (const labbook::Error& e) {
    EXPECT_NE(std::string(e.what()).find("sm_90, fermi_ca, fermi_cg, cc1x"), std::string::npos) << e.what();
  }
}

TEST(KernelCost, AddsSharedAccessesSeparatelyFromGlobalOnes) {
  // A transpose tile read down a column: every lane in one bank on sm_90 (stride 32 words).
  const WarpProgram column = [](std::uint64_t warp, std::vector<WarpAccess>& out) {
    WarpAccess a = strided(Operation::Load, 4, warp * 4, 128);
    a.space = Space::Shared;
    out.push_back(a);
    out.push_back(floats_from(warp * 128));
  };
  const KernelCost cost = kernel_cost(8, column, sm90());
  EXPECT_DOUBLE_EQ(*cost.quantity("shared_load_transactions_per_request"), 32.0);
  EXPECT_DOUBLE_EQ(*cost.quantity("shared_load_bank_conflicts"), 8 * 31.0);
  EXPECT_DOUBLE_EQ(*cost.quantity("gld_transactions"), 8 * 4.0) << "the global load is costed apart";
  EXPECT_FALSE(cost.quantity("dram_read_bytes").has_value()) << "no caches in the model";
}
