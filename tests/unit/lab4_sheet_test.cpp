// Lab 4's sheet rendered from the recorded H100 measurement: key cells checked through
// cmark-gfm's parse (every lab's whole sheet is compared with its golden file in
// lab_sheets_test.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "cmark_document.h"
#include "lab_data.h"
#include "labbook/model/measurement_json.h"
#include "markdown_writer.h"
#include "sheet_builder.h"

using namespace labbook;
using namespace labbook::report;

namespace {
const std::string kLab = std::string(LABBOOK_SOURCE_DIR) + "/labs/04_global_memory";

std::string render() {
  const LabData lab = load_lab_data(kLab + "/lab.toml");
  const Measurement m = read_measurement(kLab + "/recorded/h100.json");
  const Sheet sheet = build_sheet(lab, m, {"rendered from the recording for the golden test"});
  const std::string md = to_markdown(sheet);
  validate_markdown(sheet, md);
  return md;
}

/// Rows of every parsed table keyed by "experiment|quantity" (first two cells).
std::map<std::string, std::vector<std::string>> rows_by_key(const std::vector<ParsedTable>& tables) {
  std::map<std::string, std::vector<std::string>> out;
  for (const auto& t : tables)
    if (t.header.size() == 8 && t.header[0] == "Experiment")
      for (const auto& r : t.rows) out[r[0] + "|" + r[1]] = r;
  return out;
}
}  // namespace

TEST(Lab4Sheet, KeyCellsParseBackThroughCmarkGfm) {
  const auto rows = rows_by_key(parse_tables(render()));
  // Source | model then | model now | measured | verdict for the misaligned read: the book's
  // Fermi number beside the model's explanation of it and the H100's.
  const auto& r11 = rows.at("readSegment/offset=11|gld_efficiency");
  EXPECT_EQ(r11[2], "49.81 % (Fermi M2070) [1]");
  EXPECT_EQ(r11[3], "50.00 % (fermi_ca)");
  EXPECT_EQ(r11[4], "80.00 %");
  EXPECT_EQ(r11[5], "80.00 %");
  EXPECT_EQ(r11[6], "as predicted");
  EXPECT_NE(r11[7].find("32-byte sector"), std::string::npos);
  EXPECT_EQ(rows.at("readSegmentUncached/offset=11|gld_efficiency")[3], "80.00 % (fermi_cg)");
  EXPECT_EQ(rows.at("readSegment/offset=11|gld_transactions")[3], "131,070 transactions (fermi_ca)")
      << "the source printed 131,039";
  EXPECT_EQ(rows.at("readSegment/offset=11|gld_transactions_per_request")[5], "5.00 sectors/request");
  EXPECT_EQ(rows.at("readSegment/offset=0|gld_transactions_per_request")[5], "4.00 sectors/request");
  EXPECT_EQ(rows.at("writeSegment/offset=11|gst_efficiency")[2], "80.00 % (not named) [5]");
  EXPECT_EQ(rows.at("writeSegment/offset=11|gst_transactions_per_request")[3], "2.00 transactions/request (fermi_ca)")
      << "a 4-segment and a 1-segment transaction";
  EXPECT_EQ(rows.at("writeSegment/offset=11|gst_efficiency")[5], "80.00 %");
  EXPECT_EQ(rows.at("simpleMathAoS|gld_efficiency")[5], "50.00 %");
  EXPECT_EQ(rows.at("simpleMathSoA|gld_efficiency")[5], "100.00 %");
  // Every per-request row of the recorded H100 run matches the model for sm_90.
  std::size_t per_request = 0;
  for (const auto& [key, row] : rows)
    if (key.find("transactions_per_request") != std::string::npos) {
      ++per_request;
      EXPECT_EQ(row[6], "as predicted") << key << ": model " << row[4] << ", measured " << row[5];
    }
  EXPECT_GE(per_request, 10u);
  // A row without a source value says so instead of leaving a blank.
  EXPECT_EQ(rows.at("readSegment/offset=0|time")[2], "—");
}

TEST(Lab4Sheet, MissingCountersShowNotCollectedWithTheReason) {
  const LabData lab = load_lab_data(kLab + "/lab.toml");
  Measurement m = read_measurement(kLab + "/recorded/h100.json");
  for (auto& k : m.kernels) k.metrics.clear();
  m.issues.push_back({"counters_denied", "GPU performance counters are restricted to administrators"});
  const Sheet sheet = build_sheet(lab, m, {});
  const std::string md = to_markdown(sheet);
  const auto rows = rows_by_key(parse_tables(md));
  EXPECT_EQ(rows.at("readSegment/offset=11|gld_efficiency")[5],
            "not collected: GPU counters were denied (see Collection notes)");
  EXPECT_EQ(rows.at("readSegment/offset=11|gld_efficiency")[4], "80.00 %") << "the model needs no counters";
  EXPECT_EQ(rows.at("readSegment/offset=11|gld_efficiency")[6], "—");
  EXPECT_NE(rows.at("readSegment/offset=11|time")[5].find("µs"), std::string::npos) << "timings survive";
  EXPECT_NE(md.find("**counters_denied**"), std::string::npos);
}

TEST(Lab4Sheet, ABaselineAddsAColumnOfRatios) {
  LabData lab = load_lab_data(kLab + "/lab.toml");
  lab.sections.at(0).baseline = "readSegment/offset=0";
  const Sheet sheet = build_sheet(lab, read_measurement(kLab + "/recorded/h100.json"), {});
  const std::string md = to_markdown(sheet);
  validate_markdown(sheet, md);
  const auto tables = parse_tables(md);
  const ParsedTable* first = nullptr;
  for (const auto& t : tables)
    if (t.header.size() == 9) first = &t;
  ASSERT_NE(first, nullptr) << "one table has the extra column";
  EXPECT_EQ(first->header[6], "Of readSegment/offset=0");
  for (const auto& r : first->rows) {
    if (r[0] == "readSegment/offset=0" && r[1] == "gld_efficiency") {
      EXPECT_EQ(r[6], "100.0 %");
    }
    if (r[0] == "readSegment/offset=11" && r[1] == "gld_efficiency") {
      EXPECT_EQ(r[6], "80.0 %");
    }
  }
}

TEST(Lab4Sheet, WithoutAModelTheModelAndVerdictColumnsGoAndATraceOnlyRunSaysSo) {
  LabData lab = load_lab_data(kLab + "/lab.toml");
  lab.model.reset();
  lab.sections.at(0).baseline = "readSegment/offset=0";
  Measurement m = read_measurement(kLab + "/recorded/h100.json");
  m.metrics_requested.clear();
  const std::string md = to_markdown(build_sheet(lab, m, {}));
  const auto tables = parse_tables(md);
  bool baseline_table = false;
  for (const auto& t : tables) {
    if (t.header.empty() || t.header[0] != "Experiment") continue;
    EXPECT_EQ(std::count(t.header.begin(), t.header.end(), "Verdict"), 0);
    EXPECT_EQ(std::count(t.header.begin(), t.header.end(), "Model, this GPU"), 0);
    if (t.header.size() == 6) {
      baseline_table = true;
      EXPECT_EQ(t.header, (std::vector<std::string>{"Experiment", "Quantity", "Source (its GPU)", "Measured here",
                                                    "Of readSegment/offset=0", "What changed"}));
      for (const auto& r : t.rows) {
        if (r[0] == "readSegment/offset=11" && r[1] == "gld_efficiency") {
          EXPECT_EQ(r[4], "80.0 %");
        }
      }
    }
  }
  EXPECT_TRUE(baseline_table);
  EXPECT_NE(md.find("| Metrics collected by | none: no metric was asked for"), std::string::npos);
  EXPECT_NE(md.find("and nothing else: the lab asks for no metrics"), std::string::npos);
}
