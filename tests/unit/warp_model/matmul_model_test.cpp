// Lab 6's matrix products in the warp model (kernels/matmul_model.cpp). With 16 x 16 blocks a
// warp is two rows of 16 threads: the classic kernel's load of A is two words (one per row,
// shared by 16 lanes), its load of B 16 consecutive elements; the shared kernel loads two rows
// of 16 elements of each tile. 001's claim: with tiles, A is read B.width / 16 times and B
// A.height / 16 times.
#include <gtest/gtest.h>

#include <cstdint>

#include "architecture.h"
#include "kernel_models.h"

using namespace labbook::warp;

namespace {

struct Shape {
  int m, n, k, bytes;
};

KernelCost cost(const std::string& kernel, const Shape& s, const std::string& arch = "sm_90") {
  return modelled_cost(kernel, {{{"m", s.m}, {"n", s.n}, {"k", s.k}, {"element_bytes", s.bytes}}, std::nullopt},
                       architecture(arch));
}

double q(const KernelCost& c, const char* quantity) { return *c.quantity(quantity); }

constexpr Shape kFloat2048{2048, 2048, 2048, 4};

}  // namespace

TEST(MatmulModel, ClassicKernelTwoSectorsPerLoad) {
  const KernelCost c = cost("MatMulKernel", kFloat2048);
  const double warps = 2048.0 * 2048 / 32;
  EXPECT_DOUBLE_EQ(q(c, "inst_executed_global_loads"), warps * 2048 * 2) << "A and B once per e";
  EXPECT_DOUBLE_EQ(q(c, "gld_transactions_per_request"), 2.0) << "A: two rows; B: 64 bytes";
  EXPECT_DOUBLE_EQ(q(c, "gst_transactions"), warps * 4);
  EXPECT_DOUBLE_EQ(q(c, "gld_efficiency"), 56.25) << "A: 8 distinct bytes of 64; B: 64 of 64";
  EXPECT_DOUBLE_EQ(q(c, "flop_count_sp"), 2.0 * 2048 * 2048 * 2048);
  EXPECT_DOUBLE_EQ(q(c, "flop_count_dp"), 0.0);
}

TEST(MatmulModel, SharedKernelReadsAAndBAsTheSourceSays) {
  const KernelCost naive = cost("MatMulKernel", kFloat2048), tiled = cost("MatMulSharedKernel", kFloat2048);
  EXPECT_DOUBLE_EQ(q(naive, "inst_executed_global_loads") / q(tiled, "inst_executed_global_loads"), 16.0);
  EXPECT_DOUBLE_EQ(q(tiled, "gld_efficiency"), 100.0);
  EXPECT_DOUBLE_EQ(q(tiled, "shared_load_bank_conflicts"), 0.0);
  EXPECT_DOUBLE_EQ(q(tiled, "shared_store_bank_conflicts"), 0.0);
  // A (m x k) read B.width / 16 times, B (k x n) A.height / 16 times, in 32-byte sectors.
  for (const Shape& s : {kFloat2048, Shape{1024, 512, 2048, 4}, Shape{1024, 512, 2048, 8}}) {
    const double bytes = s.bytes * (double(s.m) * s.k * (s.n / 16) + double(s.k) * s.n * (s.m / 16));
    EXPECT_DOUBLE_EQ(q(cost("MatMulSharedKernel", s), "gld_transactions") * 32, bytes) << s.m << "x" << s.k << "x" << s.n;
  }
  EXPECT_DOUBLE_EQ(q(cost("MatMulSharedKernel", {2048, 2048, 2048, 8}), "flop_count_dp"), 2.0 * 2048 * 2048 * 2048);
}

TEST(MatmulModel, SizesThatAreNotMultiplesOf16) {
  const Shape odd{1000, 1000, 1000, 4};
  const KernelCost naive = cost("MatMulKernel", odd);
  // 63 x 63 blocks; in the last block row only the 4 warps of rows 992..999 have a lane in C.
  const double warps = 63.0 * (62 * 8 + 4);
  EXPECT_DOUBLE_EQ(q(naive, "inst_executed_global_loads"), warps * 1000 * 2);
  // B: 64 bytes per request, 32 in the last block column (8 columns); rows are 4000 bytes.
  EXPECT_DOUBLE_EQ(q(naive, "gld_transactions"), warps * 1000 * 2 + 1000.0 * 500 * (62 * 2 + 1));
  EXPECT_DOUBLE_EQ(q(naive, "flop_count_sp"), 2e9);
  // The shared kernel's threads all run every step, zeros past the edge included.
  EXPECT_DOUBLE_EQ(q(cost("MatMulSharedKernel", odd), "flop_count_sp"), 2.0 * 1008 * 1008 * 1008);
}

TEST(MatmulModel, FermiLinesFollowTheRowsOffset) {
  // A 4000-byte row moves B's 64-byte piece along the 128-byte lines: in one row of four it
  // straddles two. The model lists the loop by classes of e; count the lines outright here.
  const Shape odd{1000, 1000, 1000, 4};
  double b_lines = 0;
  for (int bx = 0; bx < 63; ++bx)
    for (int e = 0; e < 1000; ++e) {
      const int start = e * 4000 + bx * 64, length = bx == 62 ? 32 : 64;
      b_lines += 500.0 * ((start + length - 1) / 128 - start / 128 + 1);   // 500 warps per block column
    }
  const double a_lines = 63.0 * (62 * 8 + 4) * 1000 * 2;
  EXPECT_DOUBLE_EQ(q(cost("MatMulKernel", odd, "fermi_ca"), "gld_transactions"), a_lines + b_lines);
}
