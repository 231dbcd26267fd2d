// Lab 5's transpose kernels in the warp model (kernels/transpose_model.cpp), 2048² at the
// source's 16 x 16 blocks: a warp is two rows of 16 threads, so a row access touches 2 x 64
// contiguous bytes and a column access 16 columns, two adjacent floats in each.
#include <gtest/gtest.h>

#include "architecture.h"
#include "kernel_models.h"

using namespace labbook::warp;

namespace {
double q(const std::string& kernel, const char* quantity, const std::string& arch = "sm_90", long long bx = 16, long long by = 16) {
  return *modelled_cost(kernel, {{{"nx", 2048}, {"ny", 2048}, {"block_x", bx}, {"block_y", by}}, std::nullopt},
                        architecture(arch))
              .quantity(quantity);
}
}  // namespace

TEST(TransposeModel, RowsCostFourSectorsColumnsSixteen) {
  EXPECT_DOUBLE_EQ(q("copyRow", "gld_transactions_per_request"), 4.0);
  EXPECT_DOUBLE_EQ(q("copyRow", "gst_efficiency"), 100.0);
  EXPECT_DOUBLE_EQ(q("copyCol", "gld_transactions_per_request"), 16.0) << "16 columns, 8 bytes used in each sector";
  EXPECT_DOUBLE_EQ(q("copyCol", "gld_efficiency"), 25.0);
  EXPECT_DOUBLE_EQ(q("transposeNaiveRow", "gld_efficiency"), 100.0);
  EXPECT_DOUBLE_EQ(q("transposeNaiveRow", "gst_transactions_per_request"), 16.0);
  EXPECT_DOUBLE_EQ(q("transposeNaiveCol", "gld_efficiency"), 25.0);
  EXPECT_DOUBLE_EQ(q("transposeNaiveCol", "gst_efficiency"), 100.0);
  EXPECT_DOUBLE_EQ(q("transposeUnroll4Col", "gld_efficiency"), 25.0);
  EXPECT_DOUBLE_EQ(q("transposeDiagonalRow", "gst_efficiency"), 25.0) << "the block order changes no warp's addresses";
}

TEST(TransposeModel, FermiLinesAndThinBlocks) {
  // With 128-byte L1 lines a column read moves a whole line for 8 useful bytes.
  EXPECT_DOUBLE_EQ(q("transposeNaiveCol", "gld_efficiency", "fermi_ca"), 6.25);
  EXPECT_DOUBLE_EQ(q("transposeNaiveCol", "gld_efficiency", "fermi_cg"), 25.0);
  // 8 x 32: a warp is four rows of 8 threads: 32-byte rows, 8 columns of 4 floats.
  EXPECT_DOUBLE_EQ(q("copyRow", "gld_transactions_per_request", "sm_90", 8, 32), 4.0);
  EXPECT_DOUBLE_EQ(q("transposeNaiveCol", "gld_transactions_per_request", "sm_90", 8, 32), 8.0);
  EXPECT_DOUBLE_EQ(q("transposeNaiveCol", "gld_efficiency", "sm_90", 8, 32), 50.0);
}

TEST(TransposeModel, TiledIsCoalescedAndConflictFree) {
  EXPECT_DOUBLE_EQ(q("transposeTiled", "gld_efficiency"), 100.0);
  EXPECT_DOUBLE_EQ(q("transposeTiled", "gst_efficiency"), 100.0);
  EXPECT_DOUBLE_EQ(q("transposeTiled", "gst_transactions_per_request"), 4.0);
  EXPECT_DOUBLE_EQ(q("transposeTiled", "shared_load_transactions_per_request"), 1.0) << "pitch 33";
}
