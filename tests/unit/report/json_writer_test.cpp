// The sheet's JSON is written from its typed findings: every row of every question, with the
// measured value, its repeats and what the source printed, and every claim's verdict; the
// standing of a sheet just built reads the same findings.
#include <gtest/gtest.h>

#include "json_writer.h"
#include "lab_data.h"
#include "labbook/model/measurement_json.h"
#include "sheet_builder.h"
#include "sheet_standing.h"

using namespace labbook;
using namespace labbook::report;
using nlohmann::json;

namespace {
const std::string kTransposeFolder = std::string(LABBOOK_SOURCE_DIR) + "/labs/05_transpose";
}

TEST(SheetJson, HoldsEveryRowOfEveryQuestionAndEveryClaim) {
  const LabData lab = load_lab_data(kTransposeFolder + "/lab.toml");
  const Measurement m = read_measurement(kTransposeFolder + "/recorded/h100.json");
  const Sheet sheet = build_sheet(lab, m, {"", true, {}});
  const json j = sheet_json(sheet);
  EXPECT_EQ(j.at("lab"), lab.id);
  EXPECT_EQ(j.at("schema_version"), kSheetSchemaVersion);
  EXPECT_TRUE(j.at("recorded").get<bool>());
  EXPECT_EQ(j.at("measured_at"), m.program.started_at);
  ASSERT_EQ(j.at("sections").size(), lab.sections.size());
  for (std::size_t s = 0; s < lab.sections.size(); ++s) {
    const auto& rows = j["sections"][s]["rows"];
    EXPECT_EQ(j["sections"][s]["title"], lab.sections[s].title);
    ASSERT_EQ(rows.size(), lab.sections[s].experiments.size() * lab.sections[s].quantities.size()) << lab.sections[s].title;
    // Rows follow the table: experiment by experiment, each quantity in the section's order.
    EXPECT_EQ(rows[0]["experiment"], lab.sections[s].experiments[0]);
    EXPECT_EQ(rows[0]["quantity"], lab.sections[s].quantities[0].name());
    for (std::size_t r = 0; r < rows.size(); ++r) {
      const ResultRecord& typed = sheet.questions[s].rows[r];
      EXPECT_EQ(rows[r]["measured"].contains("value"), typed.measured.value.has_value());
      if (typed.measured.value) {
        EXPECT_DOUBLE_EQ(rows[r]["measured"]["value"].get<double>(), *typed.measured.value);
      }
      if (typed.measured.varies()) {
        EXPECT_EQ(rows[r]["measured"]["repeats"].size(), typed.measured.samples.size());
      }
      EXPECT_EQ(rows[r].contains("source"), typed.source.has_value());
    }
  }
  // A value the source printed keeps its unit and citation: 003's 81.64 GB/s for NaiveCol.
  bool cited = false;
  for (const auto& row : j["sections"][0]["rows"])
    if (row["experiment"] == "l1/NaiveCol" && row["quantity"] == "effective_bandwidth")
      cited = row["source"]["value"].get<double>() == 81.64e9 && row["source"]["unit"] == "bytes/s" &&
              row["source"]["citation"].get<std::string>().rfind("003_", 0) == 0;
  EXPECT_TRUE(cited);
  ASSERT_EQ(j.at("claims").size(), lab.claims.size());
  for (const auto& c : j["claims"]) EXPECT_FALSE(c["verdict"].get<std::string>().empty()) << c["claim"];
}

TEST(SheetJson, APageThatIsNoLabSheetHasNoFindings) {
  Sheet page;
  page.title = "Glossary";
  page.data = {{"terms", json::array()}};
  EXPECT_EQ(sheet_json(page), page.data);
}

TEST(SheetStanding, OfASheetJustBuiltCountsItsMeasuredRows) {
  const LabData lab = load_lab_data(kTransposeFolder + "/lab.toml");
  const Sheet sheet = build_sheet(lab, read_measurement(kTransposeFolder + "/recorded/h100.json"), {"", true, {}});
  const SheetStanding typed = standing_of(sheet);
  const SheetStanding written = standing_of(sheet_json(sheet));
  EXPECT_GT(typed.measured_values, 100);
  EXPECT_EQ(typed.measured_values, written.measured_values) << "the same count from the file it writes";
  EXPECT_TRUE(typed.recorded);
  EXPECT_EQ(typed.measured_at, written.measured_at);
}

TEST(SheetJson, AWordASourcePrintedStaysAWord) {
  const std::string lab7 = std::string(LABBOOK_SOURCE_DIR) + "/labs/07_layouts";
  const LabData lab = load_lab_data(lab7 + "/lab.toml");
  const Sheet sheet = build_sheet(lab, read_measurement(lab7 + "/recorded/h100.json"), {"", true, {}});
  // 001 names the error; 2 is only how labbook reads it.
  bool found = false;
  const json written = sheet_json(sheet);
  for (const auto& question : written["sections"])
    for (const auto& row : question["rows"])
      if (row["experiment"] == "errors/cudaMallocPitch/too_large" && row.contains("source")) {
        found = true;
        EXPECT_EQ(row["source"]["printed"], "cudaErrorMemoryAllocation");
        EXPECT_EQ(row["source"]["value"], 2);
      }
  EXPECT_TRUE(found);
  bool shown = false;
  for_each_block(sheet.blocks, [&](const Block& b) {
    if (b.kind != Block::Kind::Table) return;
    for (const auto& row : b.table.rows)
      for (const auto& cell : row) shown = shown || cell.plain().rfind("cudaErrorMemoryAllocation", 0) == 0;
  });
  EXPECT_TRUE(shown) << "the Source column shows the error's name, not 2";
}
