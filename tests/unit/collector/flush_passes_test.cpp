#include <gtest/gtest.h>

#include <set>
#include <string>
#include <utility>
#include <vector>

#include "flush_passes.h"
#include "l2_flush_kernel.h"
#include "labbook/model/error.h"

using namespace labbook::profiler;

TEST(FlushPasses, ReadsAListOfPassesInOrder) {
  EXPECT_EQ(parse_flush_passes("write,discard"), (std::vector<FlushPass>{FlushPass::Write, FlushPass::Discard}));
  EXPECT_EQ(parse_flush_passes("write,discard,read"),
            (std::vector<FlushPass>{FlushPass::Write, FlushPass::Discard, FlushPass::Read}));
  EXPECT_EQ(parse_flush_passes("read"), std::vector<FlushPass>{FlushPass::Read});
  EXPECT_EQ(parse_flush_passes("write-lines,discard"),
            (std::vector<FlushPass>{FlushPass::WriteLines, FlushPass::Discard}));
}

TEST(FlushPasses, AnUnknownWordOrNothingIsAnErrorNamingIt) {
  try {
    parse_flush_passes("write,invalidate");
    FAIL() << "accepted 'invalidate'";
  } catch (const labbook::Error& e) {
    EXPECT_NE(std::string(e.what()).find("'invalidate'"), std::string::npos) << e.what();
  }
  EXPECT_THROW(parse_flush_passes(","), labbook::Error);
}

// The flusher launches one PTX kernel per pass: each pass needs a mode of its own that the
// kernel branches on, and units the size its branch steps by (shift 4: 16 bytes, 7: 128).
TEST(FlushPasses, EachPassHasAModeTheKernelKnowsAndUnitsItsBranchSteps) {
  const std::string ptx = kL2FlushPtx;
  const std::vector<std::pair<FlushPass, const char*>> branches = {
      {FlushPass::Write, nullptr}, {FlushPass::Discard, "DISCARD:"}, {FlushPass::Read, "READ:"}, {FlushPass::WriteLines, "LINE:"}};
  std::set<unsigned> modes;
  for (const auto& [pass, label] : branches) {
    const unsigned mode = l2_flush_mode(pass);
    modes.insert(mode);
    const std::string shift = l2_flush_unit_bytes(pass) == 128 ? ", 7;" : ", 4;";
    if (!label) {   // mode 0 falls through to the write
      EXPECT_EQ(mode, 0u);
      const auto write = ptx.find("@%p5 bra LINE;");
      ASSERT_NE(write, std::string::npos);
      EXPECT_EQ(ptx.compare(ptx.find("shl.b64", write) + std::string("shl.b64 %rd6, %rd3").size(), shift.size(), shift), 0);
      continue;
    }
    EXPECT_NE(ptx.find(", %r6, " + std::to_string(mode) + ";"), std::string::npos) << "no branch on mode " << mode;
    const auto at = ptx.find(label);
    ASSERT_NE(at, std::string::npos) << label;
    EXPECT_EQ(ptx.compare(ptx.find("shl.b64", at) + std::string("shl.b64 %rd6, %rd3").size(), shift.size(), shift), 0)
        << label << " steps by other units than l2_flush_unit_bytes says";
  }
  EXPECT_EQ(modes.size(), branches.size());
}
