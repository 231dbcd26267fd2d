// The sheet lint (tests/support/sheet_lint.h): each rule fires on a bad example and not on a close
// good one; then every lab's sheet rendered from its recording, its figures and the
// workbook's index have nothing a student should never read.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "glossary.h"
#include "lab_data.h"
#include "labbook/model/measurement_json.h"
#include "markdown_writer.h"
#include "lab_folders.h"
#include "sheet_builder.h"
#include "sheet_lint.h"
#include "terminal_summary.h"
#include "workbook_index.h"

using namespace labbook;
using namespace labbook::report;
namespace fs = std::filesystem;

namespace {

const std::vector<std::string> kWritten = {"lab4.md", "lab4.html", "index.md", "lab4.curve-1.svg"};

std::vector<LintFinding> md(const std::string& text) { return lint_markdown("sheet.md", text, kWritten); }

/// The rules of `findings`, in order.
std::vector<std::string> rules(const std::vector<LintFinding>& findings) {
  std::vector<std::string> out;
  for (const auto& f : findings) out.push_back(f.rule);
  return out;
}

/// How many of `findings` are of `rule`.
std::size_t count(const std::vector<LintFinding>& findings, const std::string& rule) {
  return static_cast<std::size_t>(
      std::count_if(findings.begin(), findings.end(), [&](const LintFinding& f) { return f.rule == rule; }));
}

std::string described(const std::vector<LintFinding>& findings) {
  std::string out;
  for (const auto& f : findings) out += describe(f) + "\n";
  return out;
}

using Rules = std::vector<std::string>;

}  // namespace

TEST(SheetLint, ENotation) {
  EXPECT_EQ(rules(md("The count is 4.1943e+06 sectors.")), Rules{"e-notation"});
  EXPECT_EQ(rules(md("About 1e9 bytes, then 2.5E-3 s.")), (Rules{"e-notation", "e-notation"}));
  EXPECT_EQ(rules(md("(5.24288e+06)")), Rules{"e-notation"});
  // A hash, a word, a plain number, thousands separators: no.
  EXPECT_TRUE(md("commit c67e0f909fb510d6, run a3317679e06 and x1e9").empty()) << described(md("c67e0f909fb510d6"));
  EXPECT_TRUE(md("4,194,304 sectors and 1.25 ms at 3e").empty());
}

TEST(SheetLint, ENotationIsFineInCodeFilesAndLinks) {
  EXPECT_TRUE(md("Set `--tolerance 1e-6` first.").empty());
  EXPECT_TRUE(md("```\nptxas info: 4.1943e+06 bytes 1 kernels\n```").empty());
  EXPECT_TRUE(md("~~~~\n1e9\n~~~~\nafter").empty());
  EXPECT_TRUE(md("Written to runs/1e9.json and results/2e5.txt.").empty());
  EXPECT_TRUE(md("See [the site](https://example.com/1e9) and https://example.com/2e9 too.").empty());
  // Text after the block is linted again.
  EXPECT_EQ(rules(md("```cuda\nx = 1e9;\n```\nmeasured 1e9")), Rules{"e-notation"});
}

TEST(SheetLint, DoubledUnit) {
  EXPECT_EQ(rules(md("There were 655 conflicts conflicts.")), Rules{"doubled unit"});
  EXPECT_EQ(rules(md("Aligned: 4.00 sectors/request sectors per request here.")), Rules{"doubled unit"});
  EXPECT_EQ(rules(md("Aligned: 4.00 sectors/request sectors/request here.")), Rules{"doubled unit"});
  EXPECT_EQ(rules(md("16.00 sectors/request sectors per load request")), Rules{"doubled unit"});
  EXPECT_EQ(rules(md("16.00 sectors/request sectors of 16 useful bytes each")), Rules{"doubled unit"});
  EXPECT_EQ(rules(md("Read the the sheet.")), Rules{"doubled unit"});
  // One unit, a ratio written once, short words, numbers and table cells: no.
  EXPECT_TRUE(md("Aligned: 4.00 sectors/request, 4 sectors per request, 655 conflicts.").empty());
  EXPECT_TRUE(md("4.00 sectors/request sectorsX and 4.00 sectors/request requests").empty());
  EXPECT_TRUE(md("It is as is: 10 10 and 2.00 2.00.").empty());
  EXPECT_TRUE(md("| a | b |\n| --- | --- |\n| 32 calls | 32 calls |").empty());
  EXPECT_TRUE(md("Call `conflicts conflicts` in code.").empty());
}

TEST(SheetLint, CountWithDecimals) {
  EXPECT_EQ(rules(md("It ran 28705.00 instructions.")), Rules{"count with decimals"});
  EXPECT_EQ(rules(md("21.00 formats and 28,705.50 instructions")), (Rules{"count with decimals", "count with decimals"}));
  // Whole counts and ratios: no.
  EXPECT_TRUE(md("It ran 28,705 instructions and 21 formats.").empty());
  EXPECT_TRUE(md("2.04 wavefronts/request, 4.00 sectors/request, 2.00 sectors per request").empty());
  EXPECT_TRUE(md("21.00 % and 1.50 ms and 3.00 bits").empty());
}

TEST(SheetLint, SingularCount) {
  EXPECT_EQ(rules(md("With one stream: 1 kernels.")), Rules{"singular count"});
  EXPECT_EQ(rules(md("1 sectors, 1 calls")), (Rules{"singular count", "singular count"}));
  EXPECT_TRUE(md("1 kernel, 10 kernels, 21 kernels, 1 sector, 1,1 kernels? no: 2 calls").empty());
  EXPECT_EQ(count(md("1.5 kernels"), "singular count"), 0u);
  EXPECT_TRUE(md("1 wavefronts/request").empty()) << "a ratio's unit";
}

TEST(SheetLint, UnitlessValue) {
  const std::string table = "| Experiment | Quantity | Measured here | Verdict |\n| --- | --- | --- | --- |\n";
  EXPECT_EQ(rules(md(table + "| events/wait | payload | 100.01 | — |")), Rules{"unitless value"});
  EXPECT_EQ(rules(md(table + "| simpleMathAoS | time | 47584.5 | — |")), Rules{"unitless value"});
  const auto found = md(table + "| simpleMathAoS | time | 47584.5 | — |");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].line, 3);
  EXPECT_NE(found[0].excerpt.find("simpleMathAoS"), std::string::npos) << found[0].excerpt;
  // A unit or %, a dash, and numbers in other columns or tables: no.
  EXPECT_TRUE(md(table + "| a | payload | 100.01 % | 12 |\n| b | time | 47.6 µs | — |\n| c | bits | 47 bits | — |\n"
                         "| d | x | — | 3 |").empty());
  EXPECT_TRUE(md("| streams | time |\n| --- | --- |\n| 1 | 40.198 ms |").empty());
  // The table ends at a blank line: what follows is a paragraph.
  EXPECT_TRUE(md(table + "| a | b | 1 % | c |\n\n| a | b | 7 | c |").empty());
}

TEST(SheetLint, UnitlessValueInTerminalText) {
  const std::string text =
      "Lab 4\n"
      "experiment                     quantity                 measured here  model here     verdict        source\n"
      "readSegment/offset=0           gld_efficiency           100            100            as predicted   100 %\n"
      "simpleMathAoS                  time                     47584.5        -              -              286000 ns\n"
      "readSegmentUncached/offset=128 gld_efficiency           80 %           80             as predicted   80 %\n"
      "readSegmentUncached/offset=1280 time                    not collected  -              -              1 ms\n"
      "claim: 100 of them -> holds here: ratio 2.00; the claim needs 1.50\n";
  const auto found = lint_terminal("lab4 run", text);
  EXPECT_EQ(rules(found), (Rules{"unitless value", "unitless value"})) << described(found);
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].line, 3);
  EXPECT_EQ(found[1].line, 4);
  EXPECT_EQ(describe(found[1]).rfind("lab4 run:4: unitless value: ", 0), 0u) << describe(found[1]);
}

TEST(SheetLint, PlainTextRulesInTerminalText) {
  EXPECT_EQ(rules(lint_terminal("run", "gld_transactions  4.1943e+06 sectors\n1 kernels, 655 conflicts conflicts")),
            (Rules{"e-notation", "doubled unit", "singular count"}));
  EXPECT_TRUE(lint_terminal("run", "sheet: reports/lab4.md\n       https://ui.perfetto.dev/1e9\n").empty());
}

TEST(SheetLint, DanglingLink) {
  EXPECT_EQ(rules(md("Write your answers in [your notes](notes.md).")), Rules{"dangling link"});
  EXPECT_EQ(rules(md("Next: [Lab 9](<lab9.md>).")), Rules{"dangling link"});
  EXPECT_EQ(rules(md("![figure](lab4.curve-2.svg)")), Rules{"dangling link"});
  EXPECT_EQ(rules(md("Keep your answers in notes.md.")), Rules{"dangling link"});
  EXPECT_EQ(rules(md("Keep your answers in `notes.md`.")), Rules{"dangling link"}) << "a file that is not there";
  // Written files, anchors, the web: no.
  EXPECT_TRUE(md("[Lab 4](<lab4.md>), [results](lab4.md#results), [home](index.md), [page](lab4.html)").empty());
  EXPECT_TRUE(md("[![figure](lab4.curve-1.svg)](lab4.curve-1.svg) and [the top](#top)").empty());
  EXPECT_TRUE(md("[CUDA](https://docs.nvidia.com/cuda/) [mail](mailto:someone@example.com)").empty());
  EXPECT_TRUE(md("An escaped \\[bracket\\](not a link).").empty());
}

TEST(SheetLint, IdentifierLabelInTableHeaders) {
  EXPECT_EQ(rules(md("| payload_ns | time |\n| --- | --- |\n| 1 | 2 ms |")), Rules{"identifier label"});
  EXPECT_EQ(rules(md("| ws | latency cycles_per_load |\n| --- | --- |\n| 4 KiB | 40 cycles |")),
            Rules{"identifier label"});
  const auto found = md("| ws | latency cycles\\_per\\_load |\n| --- | --- |");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].excerpt, "latency cycles_per_load");
  // In backquotes, in cells, range names with '/', capitals: no.
  EXPECT_TRUE(md("| `cycles_per_load` | Measured here |\n| --- | --- |\n| gld_efficiency | 4 cycles |").empty());
  EXPECT_TRUE(md("| Of two_streams/one_stream | Cycles per load | SM_90 |\n| --- | --- | --- |").empty());
  EXPECT_TRUE(md("The quantity cycles_per_load is measured.").empty()) << "prose is not a label";
}

TEST(SheetLint, Svg) {
  const std::string svg =
      "<svg xmlns=\"http://www.w3.org/2000/svg\">\n"
      "<title>cycles_per_load at 1e9</title>\n"
      "<text class=\"y-tick\" x=\"1\">1e+03 GB/s</text>\n"
      "<text class=\"y-label\" x=\"1\">cycles_per_load</text>\n"
      "<text class=\"x-label\">payload_bytes (log scale)</text>\n"
      "<text class=\"x-label\">ws (log scale)</text>\n"
      "<text>fermi_ca: 2 transaction(s), 256 bytes moved for 128 requested (50.0 %)</text>\n"
      "<text>Latency &amp; c67e0f909fb510d6</text><text/>\n"
      "<text>1000 GB/s</text>\n"
      "</svg>\n";
  const auto found = lint_svg("lab1.curve-1.svg", svg);
  EXPECT_EQ(rules(found), (Rules{"e-notation", "identifier label", "identifier label"})) << described(found);
  ASSERT_EQ(found.size(), 3u);
  EXPECT_EQ(describe(found[0]), "lab1.curve-1.svg:3: e-notation: 1e+03 GB/s");
  EXPECT_EQ(describe(found[1]), "lab1.curve-1.svg:4: identifier label: cycles_per_load");
  EXPECT_EQ(describe(found[2]), "lab1.curve-1.svg:5: identifier label: payload_bytes (log scale)");
}

TEST(SheetLint, DescribeAndLineNumbers) {
  const auto found = md("# Title\n\nfine\nthen 1 kernels\n");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].file, "sheet.md");
  EXPECT_EQ(found[0].line, 4);
  EXPECT_EQ(describe(found[0]), "sheet.md:4: singular count: then 1 kernels");
}

// ---- Every lab's sheet, from its recording, as the workbook writes it ----

namespace {

using fixture::lab_folders;

LabData lab_in(const std::string& folder) {
  return load_lab_data(std::string(LABBOOK_SOURCE_DIR) + "/labs/" + folder + "/lab.toml");
}

/// What `labbook workbook` writes beside every sheet: each lab's files, the index and the
/// stylesheet (plus, per sheet, its figures).
std::vector<std::string> workbook_files() {
  std::vector<std::string> out = {"index.md", "index.html", "index.json", "labbook.css", "glossary.md", "glossary.html"};
  for (const auto& folder : lab_folders()) {
    const std::string id = lab_in(folder).id;
    for (const char* ext : {".md", ".html", ".json", ".trace.json.gz"}) out.push_back(id + ext);
  }
  return out;
}

std::string recording_of(const LabData& lab) { return lab.folder() + "/" + lab.recordings.front(); }

}  // namespace

// Outside the anonymous namespace, as the tests derive from it (GCC warns so in a unity batch).
class LabSheetLint : public ::testing::TestWithParam<std::string> {};

TEST_P(LabSheetLint, SheetFromTheRecordingHasNothingToLint) {
  const LabData lab = lab_in(GetParam());
  ASSERT_FALSE(lab.recordings.empty()) << GetParam() << " has no recording";
  const std::string recording = recording_of(lab);
  const Sheet sheet = build_sheet(lab, read_measurement(recording), {"rendered from the recording " + recording, true});
  std::vector<std::string> written = workbook_files();
  for (const auto& figure : sheet.figures) written.push_back(figure.file);

  std::vector<LintFinding> findings = lint_markdown(lab.id + ".md", to_markdown(sheet), written);
  for (const auto& figure : sheet.figures) {
    const auto in_figure = lint_svg(figure.file, figure.svg);
    findings.insert(findings.end(), in_figure.begin(), in_figure.end());
  }
  const auto in_terminal = lint_terminal(lab.id + " (labbook run's summary)", terminal_summary(sheet));
  findings.insert(findings.end(), in_terminal.begin(), in_terminal.end());
  EXPECT_TRUE(findings.empty()) << findings.size() << " finding(s) in " << lab.id << "'s sheet:\n" << described(findings);
}

INSTANTIATE_TEST_SUITE_P(Labs, LabSheetLint, ::testing::ValuesIn(lab_folders()));

TEST(WorkbookIndexLint, IndexHasNothingToLint) {
  std::vector<WorkbookEntry> entries;
  std::vector<SourceDocument> sources;
  for (const auto& folder : lab_folders()) {
    const LabData lab = lab_in(folder);
    const Measurement m = read_measurement(recording_of(lab));
    entries.push_back({lab.id, lab.title, lab.summary, m.devices.empty() ? "unknown GPU" : m.devices.front().name,
                       m.program.started_at, true, "", {lab.id + "-exercise"}});
    sources = lab.sources;
  }
  ASSERT_EQ(sources.size(), 5u) << "labs/sources.toml lists the five documents";
  const std::string index = to_markdown(build_workbook_index(entries, sources));
  EXPECT_NE(index.find("**Ottawa CEG 4536 ch. 4**"), std::string::npos) << index;
  EXPECT_NE(index.find("| `lab4-exercise` |"), std::string::npos) << "each lab's exercises in its row" << index;
  const auto findings = lint_markdown("index.md", index, workbook_files());
  EXPECT_TRUE(findings.empty()) << findings.size() << " finding(s) in the index:\n" << described(findings);
}

TEST(WorkbookIndexLint, GlossaryHasNothingToLint) {
  const Glossary glossary = load_glossary(std::string(LABBOOK_SOURCE_DIR) + "/labs/glossary.toml");
  const auto findings = lint_markdown("glossary.md", to_markdown(build_glossary_sheet(glossary)), workbook_files());
  EXPECT_TRUE(findings.empty()) << findings.size() << " finding(s) in the glossary:\n" << described(findings);
}
