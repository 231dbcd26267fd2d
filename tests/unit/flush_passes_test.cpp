#include <gtest/gtest.h>

#include "flush_passes.h"
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
