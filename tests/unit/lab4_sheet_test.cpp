// Lab 4's sheet rendered from the recorded H100 measurement: key cells checked through
// cmark-gfm's parse (every lab's whole sheet is compared with its golden file in
// lab_sheets_test.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "cmark_document.h"
#include "lab_data.h"
#include "lab_toml_fixture.h"
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

/// A section row's cells by column: "source", "model_then", "model_now", "measured",
/// "verdict", "changed" (absent where the table dropped an empty column).
using Row = std::map<std::string, std::string>;

/// Rows of every section table keyed by "experiment|quantity" (its first two cells).
std::map<std::string, Row> rows_by_key(const std::vector<ParsedTable>& tables) {
  const std::map<std::string, std::string> columns = {
      {"Source (its GPU)", "source"}, {"Model, source's GPU", "model_then"}, {"Model, this GPU", "model_now"},
      {"Verdict", "verdict"}, {"Note", "changed"}};
  std::map<std::string, Row> out;
  for (const auto& t : tables) {
    if (t.header.empty() || t.header[0] != "Experiment") continue;
    for (const auto& r : t.rows) {
      Row row;
      for (std::size_t c = 2; c < t.header.size() && c < r.size(); ++c) {
        const auto named = columns.find(t.header[c]);
        if (named != columns.end()) row[named->second] = r[c];
        else if (t.header[c].rfind("Measured", 0) == 0) row["measured"] = r[c];
      }
      out[r[0] + "|" + r[1]] = row;
    }
  }
  return out;
}
}  // namespace

TEST(Lab4Sheet, KeyCellsParseBackThroughCmarkGfm) {
  const auto rows = rows_by_key(parse_tables(render()));
  // Source | model then | model now | measured | verdict for the misaligned read: the book's
  // Fermi number beside the model's explanation of it and the H100's.
  const auto& r11 = rows.at("readSegment/offset=11|gld_efficiency");
  EXPECT_EQ(r11.at("source"), "49.81 % (Fermi) [1]");
  EXPECT_EQ(r11.at("model_then"), "50.00 % (fermi_ca)");
  EXPECT_EQ(r11.at("model_now"), "80.00 %");
  EXPECT_EQ(r11.at("measured"), "80.00 %");
  EXPECT_EQ(r11.at("verdict"), "✅ as predicted") << "the verdict as a badge: its symbol, then the words";
  // The explanation is a numbered note under the table, where it does not widen the table.
  ASSERT_EQ(r11.at("changed").rfind("note ", 0), 0u);
  const std::string md = render();
  const std::size_t table_end = md.find("\n\n", md.find("| readSegment/offset=11 | gld_efficiency |"));
  const std::string note = r11.at("changed").substr(5) + ". ";
  const std::size_t at = md.find("\n" + note, table_end);
  ASSERT_NE(at, std::string::npos);
  EXPECT_NE(md.substr(at, md.find('\n', at + 1) - at).find("32-byte sector"), std::string::npos);
  EXPECT_EQ(rows.at("readSegmentUncached/offset=11|gld_efficiency").at("model_then"), "80.00 % (fermi_cg)");
  EXPECT_EQ(rows.at("readSegment/offset=11|gld_transactions").at("model_then"), "131,070 transactions (fermi_ca)")
      << "the source printed 131,039";
  EXPECT_EQ(rows.at("readSegment/offset=11|gld_transactions_per_request").at("measured"), "5.00 sectors/request");
  EXPECT_EQ(rows.at("readSegment/offset=0|gld_transactions_per_request").at("measured"), "4.00 sectors/request");
  EXPECT_EQ(rows.at("writeSegment/offset=11|gst_efficiency").at("source"), "80.00 % (not named) [5]");
  EXPECT_EQ(rows.at("writeSegment/offset=11|gst_transactions_per_request").at("model_then"), "2.00 transactions/request (fermi_ca)")
      << "a 4-segment and a 1-segment transaction";
  EXPECT_EQ(rows.at("writeSegment/offset=11|gst_efficiency").at("measured"), "80.00 %");
  EXPECT_EQ(rows.at("simpleMathAoS|gld_efficiency").at("measured"), "50.00 %");
  EXPECT_EQ(rows.at("simpleMathSoA|gld_efficiency").at("measured"), "100.00 %");
  // Every per-request row of the recorded H100 run matches the model for sm_90.
  std::size_t per_request = 0;
  for (const auto& [key, row] : rows)
    if (key.find("transactions_per_request") != std::string::npos) {
      ++per_request;
      EXPECT_EQ(row.at("verdict"), "✅ as predicted") << key << ": model " << row.at("model_now") << ", measured " << row.at("measured");
    }
  EXPECT_GE(per_request, 10u);
  // A row without a source value says so instead of leaving a blank.
  EXPECT_EQ(rows.at("readSegment/offset=0|time").at("source"), "—");
}

TEST(Lab4Sheet, MissingCountersShowNotCollectedWithTheReason) {
  const LabData lab = load_lab_data(kLab + "/lab.toml");
  Measurement m = read_measurement(kLab + "/recorded/h100.json");
  for (auto& k : m.kernels) k.metrics.clear();
  m.issues.push_back({"counters_denied", "GPU performance counters are restricted to administrators"});
  const Sheet sheet = build_sheet(lab, m, {});
  const std::string md = to_markdown(sheet);
  const auto rows = rows_by_key(parse_tables(md));
  EXPECT_EQ(rows.at("readSegment/offset=11|gld_efficiency").at("measured"),
            "not collected: GPU counters were denied (see Collection notes)");
  EXPECT_EQ(rows.at("readSegment/offset=11|gld_efficiency").at("model_now"), "80.00 %") << "the model needs no counters";
  EXPECT_EQ(rows.at("readSegment/offset=11|gld_efficiency").count("verdict"), 0u)
      << "no measurement, no verdict: the all-dash column is dropped";
  EXPECT_NE(rows.at("readSegment/offset=11|time").at("measured").find("µs"), std::string::npos) << "timings survive";
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

TEST(Lab4Sheet, BaselineQuantitiesLimitTheRatiosToThoseQuantities) {
  LabData lab = load_lab_data(kLab + "/lab.toml");
  lab.sections.at(0).baseline = "readSegment/offset=0";
  lab.sections.at(0).baseline_quantities = {"time"};
  const std::string md = to_markdown(build_sheet(lab, read_measurement(kLab + "/recorded/h100.json"), {}));
  int ratios = 0, dashes = 0;
  for (const auto& t : parse_tables(md)) {
    if (t.header.size() < 7 || t.header[6] != "Of readSegment/offset=0") continue;
    for (const auto& r : t.rows) {
      if (r[1] == "time") {
        EXPECT_NE(r[6].find(" %"), std::string::npos) << r[0];
        ++ratios;
      } else {
        EXPECT_EQ(r[6], "—") << r[0] << " " << r[1];
        ++dashes;
      }
    }
  }
  EXPECT_GT(ratios, 0);
  EXPECT_GT(dashes, 0);
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
                                                    "Of readSegment/offset=0", "Note"}));
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
