// The memory chart (report/analysis/memory_flow.h, report/pictures/memory_chart.h): the flow built from a
// measurement's counters, "not measured" where one is missing, the SVG's text alternative and
// well-formedness, the [[memory_chart]] lab data, and the charts in a sheet and in `labbook
// profile`'s summary.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "lab_data.h"
#include "lab_toml_fixture.h"
#include "labbook/model/measurement_json.h"
#include "markdown_writer.h"
#include "memory_chart.h"
#include "memory_flow.h"
#include "profile_summary.h"
#include "sheet_builder.h"
#include "svg_checks.h"

using namespace labbook;
using namespace labbook::report;
using labbook::test::count;
using labbook::test::unbalanced_tag;

namespace {

/// Lab 4's misaligned read as the H100 counted it, plus L1-to-L2 sectors; no L1 or L2 hit
/// rate and no shared-memory counter.
std::map<std::string, double> misaligned_read_counters() {
  return {{"smsp__inst_executed_op_global_ld.sum", 1048576},
          {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 5242880},
          {"smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct", 80},
          {"smsp__inst_executed_op_global_st.sum", 524288},
          {"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", 2097152},
          {"smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct", 100},
          {"lts__t_sectors_srcunit_tex_op_read.sum", 4194304},
          {"dram__bytes_read.sum", 134217728},
          {"dram__bytes_write.sum", 67108864}};
}

Kernel kernel_in(const std::string& range, const std::string& name, std::map<std::string, double> metrics) {
  Kernel k;
  k.name = name;
  k.range = range;
  k.start_ns = 1000;
  k.end_ns = 2000;
  k.metrics = std::move(metrics);
  return k;
}

Measurement one_range(const std::string& range, const std::map<std::string, double>& counters) {
  Measurement m;
  m.program.command = {"./prog"};
  m.ranges.push_back({1, range, range, 1, 0, 0, 10000});
  m.kernels.push_back(kernel_in(range, "readSegment(float const*, float*, int)", counters));
  for (const auto& [name, value] : counters) m.metrics_requested.push_back(name);
  return m;
}


}  // namespace

TEST(MemoryFlow, TakesEachValueFromItsCounter) {
  const MemoryFlow f = range_memory_flow(one_range("readSegment/offset=11", misaligned_read_counters()),
                                         "readSegment/offset=11");
  EXPECT_EQ(f.global_loads.requests, 1048576.0);
  EXPECT_EQ(f.global_loads.sectors, 5242880.0);
  EXPECT_EQ(f.global_loads.efficiency_pct, 80.0);
  EXPECT_EQ(f.global_stores.sectors, 2097152.0);
  EXPECT_EQ(f.l2_read_sectors, 4194304.0);
  EXPECT_EQ(f.dram_read_bytes, 134217728.0);
  EXPECT_EQ(f.dram_write_bytes, 67108864.0);
  EXPECT_TRUE(f.any());
}

TEST(MemoryFlow, AMissingCounterStaysEmptyAndReadsNotMeasured) {
  const MemoryFlow f = range_memory_flow(one_range("r", misaligned_read_counters()), "r");
  EXPECT_FALSE(f.l1_hit_rate_pct) << "global_hit_rate was not collected: no value is made up";
  EXPECT_FALSE(f.l2_hit_rate_pct);
  EXPECT_FALSE(f.l2_write_sectors);
  EXPECT_FALSE(f.shared_loads.wavefronts);
  const std::string text = memory_flow_description(f);
  EXPECT_NE(text.find("L1 hit rate of global loads: not measured."), std::string::npos) << text;
  EXPECT_NE(text.find("Shared-memory loads: not measured."), std::string::npos) << text;
  EXPECT_NE(text.find("Global loads from the SM to L1: 1,048,576 requests, 5,242,880 sectors (160.0 MiB), 80.00 % of their bytes used."),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("From L1 to L2: reads 4,194,304 sectors (128.0 MiB), writes not measured."), std::string::npos) << text;
  EXPECT_NE(text.find("From L2 to DRAM: read 128.0 MiB, written 64.0 MiB."), std::string::npos) << text;

  const std::string svg = memory_chart_svg(f, "readSegment/offset=11");
  EXPECT_NE(svg.find(">5,242,880 sectors (160.0 MiB)</text>"), std::string::npos) << svg;
  EXPECT_NE(svg.find(">5.00 sectors per request</text>"), std::string::npos) << svg;
  EXPECT_GE(count(svg, ">not measured</text>"), 3u) << "the two hit rates and L1's writes to L2 at least:\n" << svg;
}

TEST(MemoryFlow, NothingMeasuredIsAFlowWithoutValues) {
  const MemoryFlow f = range_memory_flow(one_range("r", misaligned_read_counters()), "other");
  EXPECT_FALSE(f.any());
  EXPECT_EQ(memory_flow_caption(f), "") << "no caption without numbers to derive it from";
}

TEST(MemoryFlow, CaptionDerivesTheLeastSectorsFromTheEfficiency) {
  const MemoryFlow f = range_memory_flow(one_range("r", misaligned_read_counters()), "r");
  EXPECT_EQ(memory_flow_caption(f),
            "Global loads: 5.00 sectors per request; the 128 B a request asks for on average need at least 4.00 sectors "
            "per request.");
  // Without the efficiency the requested bytes are unknown: only the textbook case is quoted.
  auto counters = misaligned_read_counters();
  counters.erase("smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct");
  counters.erase("smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct");
  EXPECT_EQ(memory_flow_caption(range_memory_flow(one_range("r", counters), "r")),
            "Global loads: 5.00 sectors per request (a warp's 32 aligned, consecutive 4-byte words need 4).");
}

TEST(MemoryFlow, CaptionTellsOfTheAccessFurthestAboveItsLeast) {
  // Lab 3's unpadded tile: coalesced global traffic, 32 wavefronts per shared load.
  const MemoryFlow f = range_memory_flow(
      one_range("tile/unpadded", {{"smsp__inst_executed_op_global_ld.sum", 100},
                                  {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 400},
                                  {"smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct", 100},
                                  {"smsp__inst_executed_op_shared_ld.sum", 100},
                                  {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", 3200},
                                  {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", 3100}}),
      "tile/unpadded");
  EXPECT_EQ(memory_flow_caption(f),
            "Shared loads: 32.00 wavefronts per instruction (1 for 4-byte words without bank conflicts).");
  EXPECT_EQ(f.shared_loads.bank_conflicts, 3100.0);
}

TEST(MemoryFlow, JsonNamesEachValueByItsQuantity) {
  // Each quantity measured as its position in the list: the JSON must give it back under its name.
  const auto& names = memory_flow_quantities();
  const MemoryFlow f = memory_flow([&](const std::string& name) -> std::optional<double> {
    return static_cast<double>(std::find(names.begin(), names.end(), name) - names.begin());
  });
  const nlohmann::json j = memory_flow_json(f);
  ASSERT_EQ(j.size(), names.size());
  for (std::size_t i = 0; i < names.size(); ++i) EXPECT_EQ(j.at(names[i]), static_cast<double>(i)) << names[i];
  EXPECT_TRUE(memory_flow_json(MemoryFlow{}).at("l2_hit_rate").is_null());
}

TEST(MemoryChart, HasATextAlternativeAndNoExternalReference) {
  const MemoryFlow f = range_memory_flow(one_range("r", misaligned_read_counters()), "r");
  const std::string svg = memory_chart_svg(f, "readSegment<float> & co");
  EXPECT_NE(svg.find("role=\"img\""), std::string::npos);
  EXPECT_NE(svg.find("aria-labelledby=\"mc-title mc-desc\""), std::string::npos);
  EXPECT_NE(svg.find("<title id=\"mc-title\">Memory chart: readSegment&lt;float&gt; &amp; co</title>"), std::string::npos) << svg;
  const std::size_t desc = svg.find("<desc id=\"mc-desc\">");
  ASSERT_NE(desc, std::string::npos);
  EXPECT_NE(svg.find("L1 hit rate of global loads: not measured", desc), std::string::npos);
  EXPECT_NE(svg.find("viewBox=\"0 0 1280.0 620.0\""), std::string::npos);
  EXPECT_NE(svg.find("width=\"100%\""), std::string::npos) << "scales with the page";
  EXPECT_EQ(count(svg, "http"), 1u) << "only the xmlns: a picture fetches nothing";
  EXPECT_EQ(count(svg, "xmlns=\"http://www.w3.org/2000/svg\""), 1u);
  EXPECT_EQ(unbalanced_tag(svg), "");
}

TEST(MemoryChart, AnEmptyFlowStillDrawsEveryBox) {
  const std::string svg = memory_chart_svg(MemoryFlow{}, "nothing");
  EXPECT_EQ(unbalanced_tag(svg), "");
  for (const char* box : {">Threads / SM<", ">L1 cache<", ">Shared memory<", ">L2 cache<", ">DRAM<"})
    EXPECT_NE(svg.find(box), std::string::npos) << box;
  EXPECT_EQ(svg.find("class=\"caption\""), std::string::npos) << "no numbers, no caption";
}

// ---- Lab data --------------------------------------------------------------------------

namespace {
std::string sweep_lab() {
  return fixture::lab_toml_head() +
         "[[section]]\ntitle = \"S\"\nexperiments = [\"readSegment/offset=11\"]\nquantities = [\"time\"]\n"
         "[sweep]\ntitle = \"W\"\nparameter = \"offset\"\ngroups = [\"readSegment\"]\nquantities = [\"time\"]\n";
}
}  // namespace

TEST(MemoryChartLabData, NamesAnExperimentOfTheLab) {
  const LabData lab = parse_lab_data(sweep_lab() +
                                         "[[memory_chart]]\nexperiment = \"readSegment/offset=11\"\ncaption = \"Misaligned.\"\n"
                                         "[[memory_chart]]\nexperiment = \"readSegment/offset=3\"\n",
                                     "lab.toml");
  ASSERT_EQ(lab.memory_charts.size(), 2u);
  EXPECT_EQ(lab.memory_charts[0].experiment, "readSegment/offset=11");
  EXPECT_EQ(lab.memory_charts[0].caption, "Misaligned.");
  EXPECT_EQ(lab.memory_charts[1].experiment, "readSegment/offset=3") << "a value of the sweep's group";
}

TEST(MemoryChartLabData, AnUnknownExperimentIsAnErrorWithFileAndLine) {
  // Lines 1-12 the head, 13-16 the section, 17-21 the sweep, 22 [[memory_chart]], 23 its experiment.
  EXPECT_EQ(fixture::lab_toml_error(sweep_lab() + "[[memory_chart]]\nexperiment = \"readSegmnt/offset=11\"\n"),
            "lab.toml:23: [[memory_chart]]: 'experiment' names 'readSegmnt/offset=11', which no section, sweep, curve, "
            "reference, claim, activity table or timeline of this lab names (closest: readSegment/offset=11)");
  EXPECT_NE(fixture::lab_toml_error(sweep_lab() + "[[memory_chart]]\nexperiment = \"e\"\ntitle = \"t\"\n")
                .find("lab.toml:24: [[memory_chart]]: unknown key 'title'"),
            std::string::npos)
      << "an unknown key is named too";
}

// ---- Where the charts appear --------------------------------------------------------------

TEST(MemoryChartInSheets, Lab4DrawsTheMisalignedReadFromItsRecording) {
  const std::string folder = std::string(LABBOOK_SOURCE_DIR) + "/labs/04_global_memory";
  const LabData lab = load_lab_data(folder + "/lab.toml");
  const Sheet sheet = build_sheet(lab, read_measurement(folder + "/recorded/h100.json"), {"test", true});
  const auto figure = std::find_if(sheet.figures.begin(), sheet.figures.end(),
                                   [](const Figure& f) { return f.file == "lab4.memory-1.svg"; });
  ASSERT_NE(figure, sheet.figures.end());
  EXPECT_NE(figure->svg.find(">5.00 sectors per request</text>"), std::string::npos);
  EXPECT_NE(figure->svg.find(">not measured</text>"), std::string::npos) << "lab 4 collects no shared-memory counters";
  const std::string md = to_markdown(sheet);
  EXPECT_NE(md.find("![Memory chart of readSegment/offset=11. Global loads from the SM to L1: 1,048,576 requests"),
            std::string::npos);
  EXPECT_NE(md.find("](lab4.memory-1.svg)"), std::string::npos);
  EXPECT_EQ(sheet.data.at("memory_charts").at(0).at("measured").at("gld_transactions"), 5242876.0);
}

namespace {
/// Lab 4, whose misaligned chart asks for lines, and its H100 recording without any source run.
struct Lab4WithLines {
  LabData lab;
  Measurement m;
};
Lab4WithLines lab4_with_lines() {
  const std::string folder = std::string(LABBOOK_SOURCE_DIR) + "/labs/04_global_memory";
  Lab4WithLines out{load_lab_data(folder + "/lab.toml"), read_measurement(folder + "/recorded/h100.json")};
  EXPECT_TRUE(out.lab.memory_charts.at(0).source_lines);
  EXPECT_FALSE(out.lab.memory_charts.at(1).source_lines) << "readSegment's lines are counted for one chart";
  for (auto& k : out.m.kernels) k.sass.clear();
  return out;
}

/// Lab 4's readSegment/offset=11 launches, counted by a source run: line 30, 500 sectors
/// where 400 would do.
void count_offset_11_lines(Measurement& m) {
  for (auto& k : m.kernels)
    if (k.range == "readSegment/offset=11")
      k.sass = {{k.mangled, 0x40, "/src/lab4.cu", 30,
                 {{"smsp__sass_inst_executed", 100}, {"smsp__sass_inst_executed_op_global_ld", 100},
                  {"smsp__sass_sectors_mem_global", 500}, {"smsp__sass_sectors_mem_global_ideal", 400}}}};
}
}  // namespace

TEST(MemoryChartInSheets, SourceLinesUnderTheChartWhereTheLabAsks) {
  auto [lab, m] = lab4_with_lines();
  EXPECT_NE(to_markdown(build_sheet(lab, m, {"test", true})).find("this measurement has no source run"), std::string::npos)
      << "a recording made before the source run says so";
  count_offset_11_lines(m);
  const Sheet sheet = build_sheet(lab, m, {"test", true});
  const std::string md = to_markdown(sheet);
  EXPECT_NE(md.find("| lab4.cu:30 (note 1) | — |"), std::string::npos) << "the line, its text where the file is readable";
  // The sheet's data holds the line's numbers under its chart.
  const auto& charts = sheet.data.at("memory_charts");
  const auto chart = std::find_if(charts.begin(), charts.end(), [](const auto& c) { return c.at("experiment") == "readSegment/offset=11"; });
  ASSERT_NE(chart, charts.end());
  EXPECT_EQ(chart->at("source_lines").at("lines").at(0).at("line"), 30);
  EXPECT_EQ(chart->at("source_lines").at("lines").at(0).at("sectors"), 500.0 * chart->at("source_lines").at("launches").get<double>());
  EXPECT_NE(md.find("Each load request here moves 5.00 sectors where 4.00 would carry the same bytes"), std::string::npos);
  // Beside it, the warp model's numbers for the kernel on this GPU (lab 4 has a model).
  EXPECT_NE(md.find("The warp model, for this kernel's launch on this GPU (the whole kernel, each access kind averaged "
                    "over its instructions): sectors per load request 5.00; sectors per store request 4.00."),
            std::string::npos)
      << md.substr(md.find("Lines that move memory"), 1500);
}

TEST(MemoryChartInSheets, SourceLinesNotShownForAKernelCountedInOtherExperimentsToo) {
  // CUPTI counts a kernel once per run: lab 4's readSegment, launched in every offset's
  // experiment, comes summed over all of them, which no one experiment may show as its own.
  auto [lab, m] = lab4_with_lines();
  Kernel* first = nullptr;
  std::uint64_t launches = 0, in_offset_11 = 0;
  for (auto& k : m.kernels)
    if (kernel_short_name(k.name).find("readSegment") != std::string::npos) {
      if (!first) first = &k;
      if (k.mangled != first->mangled || k.device != first->device) continue;
      ++launches;
      in_offset_11 += k.range == "readSegment/offset=11";
    }
  ASSERT_NE(first, nullptr);
  ASSERT_GT(in_offset_11, 0u);
  ASSERT_GT(launches, in_offset_11);
  first->sass = {{first->mangled, 0x40, "/src/lab4.cu", 30,
                  {{"smsp__sass_inst_executed", 100}, {"smsp__sass_inst_executed_op_global_ld", 100},
                   {"smsp__sass_sectors_mem_global", 500}, {"smsp__sass_sectors_mem_global_ideal", 400}}}};
  first->sass_launches = launches;
  const std::string md = to_markdown(build_sheet(lab, m, {"test", true}));
  EXPECT_NE(md.find("Lines that move memory: not shown for `" + kernel_short_name(first->name) + "` (" + std::to_string(in_offset_11) + " of its " +
                    std::to_string(launches) + " launches here): CUPTI counts a kernel's instructions once per run"),
            std::string::npos);
  EXPECT_EQ(md.find("| lab4.cu:30"), std::string::npos) << "no line of the mixed sums";
}

TEST(MemoryChartInSheets, SourceLinesFromARecordingBesideWhenThisOneHasNone) {
  // The lines are the kernel's: a recording without a source run shows those of the GPU
  // beside it, and says whose they are.
  const auto [lab, m] = lab4_with_lines();
  Measurement other = m;
  other.devices.at(0).name = "NVIDIA H200";
  count_offset_11_lines(other);
  SheetContext context{"test", true};
  context.beside.push_back(other);
  const Sheet sheet = build_sheet(lab, m, context);
  const std::string md = to_markdown(sheet);
  EXPECT_NE(md.find("| lab4.cu:30 (note 1) | — |"), std::string::npos);
  EXPECT_NE(md.find("launches on the H200 (this measurement has no source run"), std::string::npos);
  EXPECT_EQ(md.find("this measurement has no source run (`labbook run`"), std::string::npos);
  EXPECT_EQ(sheet.data.at("memory_charts").at(0).at("source_lines").at("gpu"), "H200");
}

TEST(MemoryChartLabData, SourceLinesIsASwitchOfAChart) {
  const std::string chart = "[[memory_chart]]\nexperiment = \"readSegment/offset=11\"\n";
  std::string text = sweep_lab() + chart;
  EXPECT_FALSE(parse_lab_data(text, "lab.toml").source_lines()) << "off unless asked";
  text += "source_lines = true\n";
  const LabData lab = parse_lab_data(text, "lab.toml");
  EXPECT_TRUE(lab.source_lines());
  EXPECT_TRUE(lab.memory_charts.at(0).source_lines);
  std::string in_sheet = sweep_lab();
  in_sheet.insert(in_sheet.find("questions"), "source_lines = true\n");
  EXPECT_THROW(parse_lab_data(in_sheet, "lab.toml"), Error) << "a [sheet] key it does not know";
}

TEST(MemoryChartInProfileSummary, OneChartPerKernelWithMemoryCounters) {
  Measurement m = one_range("readSegment/offset=11", misaligned_read_counters());
  m.kernels.push_back(kernel_in("", "noMemory(int)", {{"gpu__time_duration.sum", 5}}));   // no chart for it
  const Sheet s = build_profile_summary(m, "");
  ASSERT_EQ(s.figures.size(), 1u);
  EXPECT_EQ(s.figures[0].file, "memory-1.svg");
  const std::string md = to_markdown(s);
  EXPECT_NE(md.find("## Memory charts"), std::string::npos);
  EXPECT_NE(md.find("### readSegment/offset=11: readSegment"), std::string::npos) << md;
  EXPECT_NE(md.find("Not collected in this run, so \"not measured\" in the charts: global_hit_rate"), std::string::npos) << md;
  EXPECT_EQ(md.find("are drawn"), std::string::npos) << "not capped";
}

TEST(MemoryChartInProfileSummary, DrawsTheFirstTwentyAndSaysSo) {
  Measurement m;
  m.program.command = {"./many"};
  for (int i = 0; i < 25; ++i) m.kernels.push_back(kernel_in("", "k" + std::to_string(i) + "(int)", misaligned_read_counters()));
  for (const auto& [name, value] : misaligned_read_counters()) m.metrics_requested.push_back(name);
  const Sheet s = build_profile_summary(m, "");
  EXPECT_EQ(s.figures.size(), 20u);
  EXPECT_NE(to_markdown(s).find("The first 20 of 25 kernels with memory counters are drawn."), std::string::npos);
}

TEST(MemoryChart, NoSectorsShowNoEfficiency) {
  // A kernel without global loads: the efficiency counter reads 0, which is no figure.
  const MemoryFlow f = range_memory_flow(
      one_range("r", {{"smsp__inst_executed_op_global_ld.sum", 0},
                      {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 0},
                      {"smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct", 0}}),
      "r");
  const std::string svg = memory_chart_svg(f, "no loads");
  EXPECT_NE(svg.find(">0 sectors</text>"), std::string::npos) << svg;
  EXPECT_EQ(svg.find("0.00 %"), std::string::npos) << svg;
  EXPECT_NE(memory_flow_description(f).find("Global loads from the SM to L1: 0 requests, 0 sectors."), std::string::npos)
      << memory_flow_description(f);
}
