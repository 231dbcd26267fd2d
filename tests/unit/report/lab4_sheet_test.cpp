// Lab 4's sheet rendered from the recorded H100 measurement: key cells checked through
// cmark-gfm's parse (every lab's whole sheet is compared with its golden file in
// lab_sheets_test.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "markdown_tables.h"
#include "lab_data.h"
#include "lab_toml_fixture.h"
#include "labbook/model/measurement_json.h"
#include "markdown_writer.h"
#include "sheet_builder.h"
#include "named_quantity.h"

using namespace labbook;
using namespace labbook::report;

namespace {
const std::string kLab4Folder = std::string(LABBOOK_SOURCE_DIR) + "/labs/04_global_memory";

std::string render() {
  const LabData lab = load_lab_data(kLab4Folder + "/lab.toml");
  const Measurement m = read_measurement(kLab4Folder + "/recorded/h100.json");
  const Sheet sheet = build_sheet(lab, m, {"rendered from the recording for the golden test"});
  const std::string md = to_markdown(sheet);
  validate_markdown(sheet, md);
  return md;
}

/// The first results table with a column named `header`, as cells keyed "row|column".
std::map<std::string, std::string> table_with(const std::vector<ParsedTable>& tables, const std::string& header) {
  std::map<std::string, std::string> out;
  for (const auto& t : tables) {
    if (std::find(t.header.begin(), t.header.end(), header) == t.header.end()) continue;
    for (const auto& r : t.rows)
      for (std::size_t c = 1; c < t.header.size() && c < r.size(); ++c) out[r[0] + "|" + t.header[c]] = r[c];
    break;
  }
  return out;
}
}  // namespace

TEST(Lab4Sheet, ExperimentsAreRowsAndQuantitiesColumnsWithTheSourceBesideTheMeasurement) {
  const std::string md = render();
  const auto tables = parse_tables(md);
  const auto read = table_with(tables, "Load efficiency, source: Fermi (%)");
  ASSERT_FALSE(read.empty());
  // One meaning a column: the book's Fermi number, the model's for Fermi, then the H100's;
  // the unit and the GPU in the header.
  const std::string source = read.at("offset=11|Load efficiency, source: Fermi (%)");
  EXPECT_EQ(source.rfind("49.81 [1]", 0), 0u) << source;
  EXPECT_EQ(read.at("offset=11|Load efficiency, model of Fermi, L1 cached (%)"), "50.00");
  EXPECT_EQ(read.at("offset=11|Load efficiency (%)"), "80.00");
  EXPECT_EQ(read.at("offset=11|Sectors per load (sectors/request)"), "5.00");
  EXPECT_EQ(read.at("offset=0|Sectors per load (sectors/request)"), "4.00");
  EXPECT_EQ(read.at("offset=11|Sectors per load, model of Fermi, L1 cached (transactions/request)"), "2.00");
  // The explanation is a numbered note under the table, written once.
  const auto note = source.find("(note ");
  ASSERT_NE(note, std::string::npos);
  const std::string number = source.substr(note + 6, source.find(')', note) - note - 6);
  const std::size_t at = md.find("\n" + number + ". ");
  ASSERT_NE(at, std::string::npos);
  EXPECT_NE(md.substr(at, md.find('\n', at + 1) - at).find("32-byte sector"), std::string::npos);
  const auto write = table_with(tables, "Store efficiency, source (GPU not named) (%)");
  EXPECT_EQ(write.at("offset=11|Store efficiency, source (GPU not named) (%)").rfind("80.00 [", 0), 0u);
  EXPECT_EQ(write.at("offset=11|Store efficiency (%)"), "80.00");
  // The recorded H100 run matches the model for sm_90: no cell says it differs.
  EXPECT_EQ(md.find(" ≠ model "), std::string::npos);
  EXPECT_EQ(md.find("gld_transactions_per_request |"), std::string::npos) << "no internal name heads a column";
}

TEST(Lab4Sheet, TheSummaryListsEveryClaimWithItsVerdictAndSection) {
  const LabData lab = load_lab_data(kLab4Folder + "/lab.toml");
  const std::string md = render();
  const auto tables = parse_tables(md);
  ASSERT_FALSE(tables.empty());
  const ParsedTable& summary = tables.front();
  ASSERT_EQ(summary.header.at(0), "The source says (Ottawa CEG 4536 ch. 4)")
      << "the first table of the sheet is the claims' summary, and the one source of its claims is named once";
  for (const auto& r : summary.rows) EXPECT_EQ(r.at(0).find("(Ottawa"), std::string::npos) << "not again in a row: " << r.at(0);
  EXPECT_EQ(summary.rows.size(), lab.claims.size());
  for (const auto& r : summary.rows) EXPECT_NE(r.at(2).find(" § "), std::string::npos) << "a link to its section: " << r.at(0);
  EXPECT_LT(md.find("What the sources claim"), md.find("## ▸ Background")) << "the summary comes before the background";
  EXPECT_LT(md.find("## ▸ Questions"), md.find("▸ How this was measured")) << "the setup comes at the end";
}

TEST(Lab4Sheet, OnlyTheKeyPictureIsOpenTheOthersWaitInFolds) {
  const Sheet sheet = build_sheet(load_lab_data(kLab4Folder + "/lab.toml"), read_measurement(kLab4Folder + "/recorded/h100.json"), {});
  std::vector<std::string> open;
  for (const auto& b : sheet.blocks)
    if (b.kind == Block::Kind::Markdown && b.text.find("](lab4.") != std::string::npos) open.push_back(b.text);
  std::size_t folded = 0;
  for (const auto& b : sheet.blocks)
    if (b.kind == Block::Kind::Fold)
      for_each_block(b.children, [&](const Block& inside) { folded += inside.text.find("](lab4.") != std::string::npos; });
  ASSERT_EQ(open.size(), 1u) << "the key picture alone stays open";
  EXPECT_NE(open[0].find("lab4.warp.readSegment-offset-0.svg"), std::string::npos) << open[0];
  EXPECT_GE(folded, 4u) << "the warps, memory charts and roofline are one click away";
}

TEST(Lab4Sheet, MissingCountersShowNotCollectedWithTheReason) {
  const LabData lab = load_lab_data(kLab4Folder + "/lab.toml");
  Measurement m = read_measurement(kLab4Folder + "/recorded/h100.json");
  for (auto& k : m.kernels) k.metrics.clear();
  m.issues.push_back({"counters_denied", "GPU performance counters are restricted to administrators"});
  const std::string md = to_markdown(build_sheet(lab, m, {}));
  const auto read = table_with(parse_tables(md), "Load efficiency, source: Fermi (%)");
  EXPECT_EQ(read.at("offset=11|Load efficiency").rfind("not collected (note ", 0), 0u);
  EXPECT_NE(md.find("not collected: GPU counters were denied (see Collection notes)"), std::string::npos);
  EXPECT_FALSE(read.at("offset=11|Time (µs)").empty()) << "timings survive";
  EXPECT_NE(md.find("**counters_denied**"), std::string::npos);
}

TEST(Lab4Sheet, ABaselineAddsAColumnOfRatios) {
  LabData lab = load_lab_data(kLab4Folder + "/lab.toml");
  lab.sections.at(0).baseline = "readSegment/offset=0";
  const std::string md = to_markdown(build_sheet(lab, read_measurement(kLab4Folder + "/recorded/h100.json"), {}));
  const auto read = table_with(parse_tables(md), "Load efficiency, of readSegment/offset=0 (%)");
  ASSERT_FALSE(read.empty());
  EXPECT_EQ(read.at("offset=0|Load efficiency, of readSegment/offset=0 (%)"), "100.00");
  EXPECT_EQ(read.at("offset=11|Load efficiency, of readSegment/offset=0 (%)"), "80.00");
}

TEST(Lab4Sheet, BaselineQuantitiesLimitTheRatiosToThoseQuantities) {
  LabData lab = load_lab_data(kLab4Folder + "/lab.toml");
  lab.sections.at(0).baseline = "readSegment/offset=0";
  lab.sections.at(0).baseline_quantities = {named_quantity("time")};
  const std::string md = to_markdown(build_sheet(lab, read_measurement(kLab4Folder + "/recorded/h100.json"), {}));
  const auto read = table_with(parse_tables(md), "Time, of readSegment/offset=0 (%)");
  ASSERT_FALSE(read.empty());
  EXPECT_EQ(read.count("offset=11|Load efficiency, of readSegment/offset=0 (%)"), 0u);
  EXPECT_FALSE(read.at("offset=11|Time, of readSegment/offset=0 (%)").empty());
}

TEST(Lab4Sheet, BaselineQuantitiesMustBeTheSectionsOwnAndNeedABaseline) {
  const std::string head = fixture::lab_toml_head() + "[[section]]\ntitle = \"S\"\nexperiments = [\"a\"]\n"
                           "quantities = [\"time\"]\n";
  EXPECT_NE(fixture::lab_toml_error(head + "baseline = \"b\"\nbaseline_quantities = [\"gld_efficiency\"]\n")
                .find("'baseline_quantities' names 'gld_efficiency', which is not one of the section's quantities"),
            std::string::npos);
  EXPECT_NE(fixture::lab_toml_error(head + "baseline_quantities = [\"time\"]\n").find("'baseline_quantities' needs a baseline"),
            std::string::npos);
  EXPECT_EQ(fixture::lab_toml_error(head + "baseline = \"b\"\nbaseline_quantities = [\"time\"]\n"), "");
}

TEST(Lab4Sheet, WithoutAModelNoModelValueShowsAndATraceOnlyRunSaysSo) {
  LabData lab = load_lab_data(kLab4Folder + "/lab.toml");
  lab.model.reset();
  Measurement m = read_measurement(kLab4Folder + "/recorded/h100.json");
  m.metrics_requested.clear();
  const std::string md = to_markdown(build_sheet(lab, m, {}));
  const auto read = table_with(parse_tables(md), "Load efficiency, source: Fermi (%)");
  ASSERT_FALSE(read.empty());
  for (const auto& [cell, value] : read) EXPECT_EQ(cell.find("model"), std::string::npos) << cell;
  EXPECT_EQ(read.count("offset=0|Sectors per load, source"), 0u) << "a column of nothing but dashes goes";
  EXPECT_NE(md.find("| Metrics collected by | none: no metric was asked for"), std::string::npos);
  EXPECT_NE(md.find("and nothing else: the lab asks for no metrics"), std::string::npos);
}
