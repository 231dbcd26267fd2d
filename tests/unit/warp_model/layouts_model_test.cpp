// Lab 7's kernels in the warp model (kernels/layouts_model.cpp). Rows of 1001 floats are
// 4004 bytes: packed one after another (pitch 4004) row y starts 4y bytes past a 32-byte
// sector boundary (mod 32), so 7 rows in 8 need a fifth sector for each full warp; padded to
// a pitch that is a multiple of 32 bytes every row starts on a sector.
#include <gtest/gtest.h>

#include "architecture.h"
#include "kernel_models.h"

using namespace labbook::warp;

namespace {
double q(const std::string& kernel, const char* quantity, std::map<std::string, long long> params,
         const std::string& arch = "sm_90") {
  return *modelled_cost(kernel, {std::move(params), std::nullopt}, architecture(arch)).quantity(quantity);
}
std::map<std::string, long long> rows(long long pitch, long long height = 32) {
  return {{"width", 1001}, {"height", height}, {"pitch", pitch}};
}
}  // namespace

TEST(LayoutsModel, PackedOddRowsStartOffSectors) {
  // Per 8 rows: 31 full warps of 4 sectors (row 0) or 5 (rows 1-7), plus a 9-lane warp of 2.
  EXPECT_DOUBLE_EQ(q("rowsScale", "gld_transactions_per_request", rows(4004)), 1225.0 / 256.0);
  EXPECT_DOUBLE_EQ(q("rowsScale", "gld_efficiency", rows(4004)), 100.0 * 8 * 4004 / (1225.0 * 32));
  EXPECT_DOUBLE_EQ(q("rowsScale", "gst_efficiency", rows(4004)), 100.0 * 8 * 4004 / (1225.0 * 32)) << "stores alike";
}

TEST(LayoutsModel, PitchedRowsStartOnSectors) {
  EXPECT_DOUBLE_EQ(q("rowsScale", "gld_transactions_per_request", rows(4096)), 126.0 / 32.0);
  EXPECT_DOUBLE_EQ(q("rowsScale", "gld_efficiency", rows(4096)), 100.0 * 4004 / 4032);
}

TEST(LayoutsModel, AnyPitchThatIsAMultipleOfTheUnitGivesTheSameCounts) {
  // The lab data names one pitch for the model; whichever multiple of 128 bytes the GPU
  // returns, the sectors (and Fermi's lines) are the same.
  for (long long pitch : {4608LL, 8192LL}) {
    for (const char* arch : {"sm_90", "fermi_ca"}) {
      EXPECT_DOUBLE_EQ(q("rowsScale", "gld_transactions_per_request", rows(pitch), arch),
                       q("rowsScale", "gld_transactions_per_request", rows(4096), arch))
          << pitch << " " << arch;
      EXPECT_DOUBLE_EQ(q("rowsScale", "gld_efficiency", rows(pitch), arch), q("rowsScale", "gld_efficiency", rows(4096), arch));
    }
  }
  EXPECT_NE(q("rowsScale", "gld_efficiency", rows(4012)), q("rowsScale", "gld_efficiency", rows(4096)))
      << "a pitch that is not a multiple of 32 moves rows off their sectors again";
}

TEST(LayoutsModel, FermiLinesCostPackedRowsHalfTheirTraffic) {
  // 128-byte lines: a packed row starts 36 bytes further into a line than the one before it,
  // so almost every full warp spans two lines.
  EXPECT_NEAR(q("rowsScale", "gld_efficiency", rows(4004), "fermi_ca"), 50.2, 0.1);
  EXPECT_DOUBLE_EQ(q("rowsScale", "gld_efficiency", rows(4096), "fermi_ca"), 100.0 * 4004 / 4096);
}

TEST(LayoutsModel, Compute1xCoalescesOnlyRowsOnA64ByteBoundary) {
  // 004's table: a half-warp of 32-bit words coalesces when lane k reads word k and the first
  // word lies on a 64-byte boundary. Packed rows start 36y mod 64 bytes in: only every 16th
  // row is aligned, and every other half-warp costs 16 transactions of 32 bytes.
  EXPECT_NEAR(q("rowsScale", "gld_efficiency", rows(4004), "cc1x"), 100.0 * 16 * 4004 / (4032 + 15 * (62 * 512 + 9 * 32)), 1e-9);
  EXPECT_DOUBLE_EQ(q("rowsScale", "gld_efficiency", rows(4096), "cc1x"), 100.0 * 4004 / 4032);
}

TEST(LayoutsModel, VolumeRowsOfSixtyFourFloatsAreWholeSectors) {
  const std::map<std::string, long long> volume = {{"width", 64}, {"height", 64}, {"depth", 64}, {"pitch", 512}};
  EXPECT_DOUBLE_EQ(q("volumeScale", "gld_transactions_per_request", volume), 4.0);
  EXPECT_DOUBLE_EQ(q("volumeScale", "gld_efficiency", volume), 100.0);
  EXPECT_DOUBLE_EQ(q("volumeScale", "inst_executed_global_loads", volume), 64.0 * 64 * 64 / 32) << "one load per element";
}

TEST(LayoutsModel, StencilByColumnsTouchesASectorPerLane) {
  const std::map<std::string, long long> image = {{"width", 1001}, {"height", 64}, {"pitch", 4096}};
  // Each lane reads another row: one sector per distinct row, 4 useful bytes in each.
  const double columns = q("stencilGlobalColumns", "gld_transactions_per_request", image);
  EXPECT_GT(columns, 30.0);
  EXPECT_LE(columns, 32.0) << "clamping at the top and bottom rows makes two lanes share a row";
  EXPECT_DOUBLE_EQ(q("stencilGlobalColumns", "gld_efficiency", image), 12.5);
  // Along a row: 4 sectors for the centre, up and down, 5 for the shifted left and right.
  const double by_rows = q("stencilGlobalRows", "gld_transactions_per_request", image);
  EXPECT_GT(by_rows, 4.0);
  EXPECT_LT(by_rows, 4.5);
  EXPECT_DOUBLE_EQ(q("stencilGlobalRows", "gst_transactions_per_request", image), 126.0 / 32.0);
  EXPECT_DOUBLE_EQ(q("stencilGlobalColumns", "gst_transactions_per_request", image), 32.0);
}
