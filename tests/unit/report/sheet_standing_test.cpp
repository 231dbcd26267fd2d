// A sheet is not replaced by a worse one: one from a recording over one measured here, or one
// with fewer measured values; the same run rendered again always replaces itself.
#include <gtest/gtest.h>

#include "sheet_standing.h"

using namespace labbook::report;
using nlohmann::json;

namespace {

json sheet_with(bool recorded, const std::string& at, int measured, int missing) {
  json rows = json::array();
  for (int i = 0; i < measured; ++i) rows.push_back({{"measured", {{"value", 1.0}, {"unit", "%"}}}});
  for (int i = 0; i < missing; ++i) rows.push_back({{"measured", {{"missing", "not measured"}}}});
  return {{"recorded", recorded}, {"measured_at", at}, {"sections", json::array({{{"rows", rows}}})}};
}

}  // namespace

TEST(SheetStanding, CountsMeasuredValuesOnly) {
  const SheetStanding s = standing_of(sheet_with(false, "t", 3, 2));
  EXPECT_EQ(s.measured_values, 3);
  EXPECT_FALSE(s.recorded);
  EXPECT_EQ(standing_of(json::object()).measured_values, 0) << "a JSON without sections";
}

TEST(SheetStanding, ARecordingDoesNotReplaceASheetMeasuredHere) {
  const std::string why = worse_because(standing_of(sheet_with(false, "a", 5, 0)), standing_of(sheet_with(true, "b", 9, 0)));
  EXPECT_NE(why.find("measured on this machine (a)"), std::string::npos) << why;
  EXPECT_EQ(worse_because(standing_of(sheet_with(true, "a", 5, 0)), standing_of(sheet_with(false, "b", 5, 0))), "")
      << "a measurement replaces a recording";
}

TEST(SheetStanding, FewerValuesAreWorseUnlessItIsTheSameRun) {
  const std::string why = worse_because(standing_of(sheet_with(false, "a", 5, 0)), standing_of(sheet_with(false, "b", 2, 3)));
  EXPECT_EQ(why, "it has 5 measured values and the new one 2");
  EXPECT_EQ(worse_because(standing_of(sheet_with(false, "a", 5, 0)), standing_of(sheet_with(false, "a", 2, 3))), "");
  EXPECT_EQ(worse_because(standing_of(sheet_with(false, "a", 5, 0)), standing_of(sheet_with(false, "b", 6, 0))), "");
}
