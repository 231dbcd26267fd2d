// The roofline (report/analysis/roofline.h, report/pictures/roofline_chart.h): points and their roofs from a
// kernel's counters, the kernels that cannot be points and why, the SVG's text alternative
// and well-formedness, the [[roofline]] lab data and labs/peaks.toml, and the rooflines in
// lab 6's sheet and in `labbook profile`'s summary.
#include <gtest/gtest.h>

#include <algorithm>

#include "lab_data.h"
#include "lab_toml_fixture.h"
#include "labbook/model/measurement_json.h"
#include "markdown_writer.h"
#include "profile_summary.h"
#include "roofline.h"
#include "roofline_chart.h"
#include "sheet_builder.h"
#include "svg_checks.h"
#include "named_quantity.h"

using namespace labbook;
using namespace labbook::report;
using labbook::test::count;
using labbook::test::unbalanced_tag;

namespace {

/// A GPU whose DRAM roof is 1 TB/s (2 x 500 MHz x 8000-bit bus / 8) with 10 SMs at 1 GHz.
DeviceFacts small_gpu() {
  DeviceFacts d;
  d.name = "Test GPU";
  d.cc_major = 9;
  d.sm_count = 10;
  d.sm_clock_khz = 1000000;
  d.memory_clock_khz = 500000;
  d.memory_bus_width_bits = 8000;
  return d;
}

/// 256 FP32 FLOP per SM per clock: 2.56 TFLOP/s on small_gpu(), so its ridge is at 2.56 FLOP/byte.
std::vector<ArithmeticPeak> sp_peak() { return {{named_quantity("flop_rate_sp"), 9, 0, 256, "lanes", "a guide", std::nullopt}}; }

RooflineKernel roofline_kernel(const std::string& label, std::optional<double> sp, std::optional<double> dram, double seconds = 1e-3) {
  return {label, sp, std::nullopt, dram, seconds, std::nullopt, std::nullopt};
}

Roofline small_roofline() {
  Measurement m;
  m.devices.push_back(small_gpu());
  return roofline_for(m, sp_peak());
}

}  // namespace

TEST(Roofline, RoofsComeFromTheDeviceAndThePeaksOfItsComputeCapability) {
  const Roofline r = small_roofline();
  EXPECT_DOUBLE_EQ(r.dram_bytes_per_second, 1e12);
  ASSERT_EQ(r.ceilings.size(), 1u) << "no FP64 peak was given";
  EXPECT_DOUBLE_EQ(r.ceilings[0].flops_per_second, 2.56e12);
  EXPECT_EQ(r.ceilings[0].precision, "sp");

  Measurement other;
  other.devices.push_back(small_gpu());
  other.devices[0].cc_major = 8;
  EXPECT_TRUE(roofline_for(other, sp_peak()).ceilings.empty()) << "a peak of another compute capability";
}

TEST(Roofline, APointLiesUnderTheSlopeOrTheCeilingOfItsIntensity) {
  Roofline r = small_roofline();
  r.kernels = {roofline_kernel("low", 1e9, 1e9), roofline_kernel("high", 1e10, 1e9)};   // 1 and 10 FLOP per byte
  const auto points = roofline_points(r);
  ASSERT_EQ(points.size(), 2u);
  EXPECT_DOUBLE_EQ(points[0].intensity, 1.0);
  EXPECT_DOUBLE_EQ(points[0].flops_per_second, 1e12);
  EXPECT_TRUE(points[0].memory_bound);
  EXPECT_DOUBLE_EQ(*points[0].roof, 1e12) << "1 TB/s x 1 FLOP/byte, under the 2.56 TFLOP/s ceiling";
  EXPECT_FALSE(points[1].memory_bound);
  EXPECT_DOUBLE_EQ(*points[1].roof, 2.56e12);
  EXPECT_NE(roofline_description(r).find("low (FP32): 1.00 FLOP per DRAM byte, 1000.0 GFLOP/s, 100.00 % of its roof"),
            std::string::npos)
      << roofline_description(r);
  // Above a roof: FLOPs on units the ceiling leaves out, or bytes a cache served.
  r.kernels = {roofline_kernel("tensor", 1e10, 1e8), roofline_kernel("cached", 1e9, 1e10)};
  const std::string text = roofline_description(r);
  EXPECT_NE(text.find("of its roof, above the arithmetic ceiling (it ran on units the ceiling leaves out"), std::string::npos)
      << text;
  EXPECT_NE(text.find("of its roof, above the bandwidth slope (some of its bytes came from L2"), std::string::npos) << text;
}

TEST(Roofline, L2RoofAndIntensityComeFromTheKernelsCounters) {
  Roofline r = small_roofline();
  EXPECT_EQ(l2_roof(r), 0.0) << "no kernel, no L2 roof";
  RooflineKernel a = roofline_kernel("a", 1e9, 1e9), b = roofline_kernel("b", 1e9, 1e9), c = roofline_kernel("c", 1e9, 1e9);
  a.l2_bytes = 4e9, a.l2_peak = 5e12;
  b.l2_peak = 6e12;   // L2 bytes not collected: no hollow point
  c.l2_peak = 4e12;
  r.kernels = {a, b, c};
  EXPECT_DOUBLE_EQ(l2_roof(r), 5e12) << "the median of the clocks the kernels ran at";
  const auto points = roofline_points(r);
  ASSERT_EQ(points.size(), 3u);
  EXPECT_DOUBLE_EQ(*points[0].l2_intensity, 0.25) << "1 GFLOP over 4 GB through L2";
  EXPECT_FALSE(points[1].l2_intensity);
  EXPECT_DOUBLE_EQ(*points[0].roof, 1e12) << "the share stays the DRAM roof's";
  const std::string d = roofline_description(r);
  EXPECT_NE(d.find("L2 roof: 5000.0 GB/s (at the L2 clock measured)."), std::string::npos) << d;
  EXPECT_NE(d.find("a (FP32): 1.00 FLOP per DRAM byte, 1000.0 GFLOP/s (0.25 FLOP per L2 byte)"), std::string::npos) << d;
  EXPECT_EQ(roofline_json(r)["points"][0]["flop_per_l2_byte"], 0.25);
  EXPECT_EQ(roofline_json(r)["l2_bytes_per_second"], 5e12);
  EXPECT_NE(l2_roof_note(r).find("dashed slope is L2's peak bandwidth"), std::string::npos);

  const std::string svg = roofline_svg(r, "L2", "rl2");
  EXPECT_EQ(unbalanced_tag(svg), "");
  EXPECT_EQ(count(svg, "class=\"roof l2\""), 1u);
  EXPECT_NE(svg.find(">L2 5000.0 GB/s</text>"), std::string::npos);
  EXPECT_EQ(count(svg, "class=\"l2-point\""), 1u);
  EXPECT_NE(svg.find("hollow: the kernel per byte of L2 traffic"), std::string::npos);

  Roofline without = small_roofline();
  without.kernels = {roofline_kernel("a", 1e9, 1e9)};
  const std::string plain = roofline_svg(without, "no L2", "rl3");
  EXPECT_EQ(count(plain, "class=\"roof l2\""), 0u);
  EXPECT_EQ(roofline_json(without)["l2_bytes_per_second"], nullptr);
  EXPECT_EQ(l2_roof_note(without), "");
}

TEST(Roofline, KernelsThatCannotBePointsSayWhy) {
  Roofline r = small_roofline();
  r.kernels = {roofline_kernel("copy", std::nullopt, 5e8), roofline_kernel("no math", 0, 5e8), roofline_kernel("in L2", 1e9, 0),
               roofline_kernel("no bytes counted", 1e9, std::nullopt), roofline_kernel("fine", 1e9, 1e9)};
  const auto asides = roofline_asides(r);
  ASSERT_EQ(asides.size(), 4u);
  EXPECT_EQ(asides[0].short_reason, "FLOPs not collected");
  EXPECT_DOUBLE_EQ(*asides[0].dram_bytes_per_second, 5e11) << "its bandwidth is still shown";
  EXPECT_EQ(asides[1].short_reason, "no FLOPs");
  EXPECT_EQ(asides[2].short_reason, "no DRAM bytes");
  EXPECT_EQ(asides[3].short_reason, "DRAM bytes not collected");
  EXPECT_FALSE(asides[3].dram_bytes_per_second);
  EXPECT_EQ(roofline_points(r).size(), 1u);
  EXPECT_NE(roofline_description(r).find("Not on the chart: copy, because its FLOPs were not collected"), std::string::npos);
  EXPECT_NE(roofline_description(r).find("500.0 GB/s, 50.00 % of the roof"), std::string::npos) << roofline_description(r);
}

TEST(RooflineChart, DrawsEveryPointCeilingAndAsideWithItsTextAlternative) {
  Roofline r = small_roofline();
  r.kernels = {roofline_kernel("low", 1e9, 1e9), roofline_kernel("high", 1e10, 1e9), roofline_kernel("copy", std::nullopt, 5e8)};
  const std::string svg = roofline_svg(r, "two kernels & a copy", "rlx");
  EXPECT_EQ(unbalanced_tag(svg), "");
  EXPECT_NE(svg.find("<title id=\"rlx-title\">Roofline: two kernels &amp; a copy</title>"), std::string::npos);
  EXPECT_NE(svg.find("<desc id=\"rlx-desc\">Roofline of the Test GPU."), std::string::npos);
  EXPECT_EQ(count(svg, "class=\"point\""), 2u);
  EXPECT_EQ(count(svg, "class=\"aside\""), 1u);
  EXPECT_NE(svg.find(">FP32 FMA peak 2.56 TFLOP/s</text>"), std::string::npos);
  EXPECT_NE(svg.find(">DRAM 1000.0 GB/s</text>"), std::string::npos);
  EXPECT_NE(svg.find(">1  low (100.00 %)</text>"), std::string::npos) << "the legend numbers the points";
  EXPECT_EQ(svg.find("e+"), std::string::npos) << "no exponent in the axis labels";
}

TEST(RooflineChart, ChartWithoutPointsStillShowsItsRoofs) {
  Roofline r = small_roofline();
  r.kernels = {roofline_kernel("copy", std::nullopt, 5e8)};
  const std::string svg = roofline_svg(r, "copies", "rl");
  EXPECT_EQ(unbalanced_tag(svg), "");
  EXPECT_NE(svg.find("no kernel with measured FLOPs and DRAM bytes"), std::string::npos);
  EXPECT_EQ(svg.find("Kernels (share of their roof)"), std::string::npos) << "no empty legend";
  EXPECT_NE(svg.find("class=\"roof\""), std::string::npos);
}

// ---- Lab data ----------------------------------------------------------------------------

namespace {
std::string roofline_lab() {
  return fixture::lab_toml_head() +
         "[[section]]\ntitle = \"S\"\nexperiments = [\"naive/n=16\", \"tiled/n=16\"]\nquantities = [\"time\"]\n";
}
}  // namespace

TEST(RooflineLabData, NamesExperimentsOfTheLab) {
  const LabData lab = parse_lab_data(
      roofline_lab() + "[[roofline]]\ntitle = \"T\"\nexperiments = [\"naive/n=16\", \"tiled/n=16\"]\ncaption = \"C\"\n",
      "lab.toml");
  ASSERT_EQ(lab.rooflines.size(), 1u);
  EXPECT_EQ(lab.rooflines[0].experiments.size(), 2u);
  EXPECT_EQ(lab.rooflines[0].caption, "C");
}

TEST(RooflineLabData, BadTablesAreErrorsWithFileAndLine) {
  // Lines 1-12 the head, 13-16 the section, 17 [[roofline]], 18 title, 19 experiments.
  EXPECT_EQ(fixture::lab_toml_error(roofline_lab() + "[[roofline]]\ntitle = \"T\"\nexperiments = [\"naive/n=61\"]\n"),
            "lab.toml:19: [[roofline]]: 'experiments' names 'naive/n=61', which no section, sweep, curve, reference, "
            "claim, activity table or timeline of this lab names (closest: naive/n=16, tiled/n=16)");
  EXPECT_NE(fixture::lab_toml_error(roofline_lab() + "[[roofline]]\ntitle = \"T\"\nexperiments = []\n").find("is empty"),
            std::string::npos);
  EXPECT_NE(fixture::lab_toml_error(roofline_lab() + "[[roofline]]\ntitle = \"T\"\nexperiments = [\"naive/n=16\"]\n"
                                                         "experiment = \"x\"\n")
                .find("unknown key 'experiment'"),
            std::string::npos);
}

TEST(RooflineLabData, SharedPeaksServeEveryLab) {
  const std::string peaks = std::string(LABBOOK_SOURCE_DIR) + "/labs/peaks.toml";
  const auto shared = load_arithmetic_peaks(peaks);
  ASSERT_EQ(shared.size(), 3u);
  const LabData lab = parse_lab_data(roofline_lab(), "lab.toml", shared);
  EXPECT_EQ(lab.peaks.size(), 3u) << "a lab without [[peak]]s of its own has the shared ones";
  try {
    parse_arithmetic_peaks("[[peak]]\nquantity = \"flop_rate_sp\"\n[lab]\nid = \"x\"\n", "peaks.toml");
    FAIL() << "a peaks file holds [[peak]]s only";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("peaks.toml"), std::string::npos) << e.what();
  }
}

// ---- Where rooflines appear ------------------------------------------------------------

TEST(RooflineInSheets, Lab6PlacesItsProductsUnderTheH100Roofs) {
  const std::string folder = std::string(LABBOOK_SOURCE_DIR) + "/labs/06_matmul";
  const LabData lab = load_lab_data(folder + "/lab.toml");
  const Sheet sheet = build_sheet(lab, read_measurement(folder + "/recorded/h100.json"), {"test", true});
  const auto figure = std::find_if(sheet.figures.begin(), sheet.figures.end(),
                                   [](const Figure& f) { return f.file == "lab6.roofline-1.svg"; });
  ASSERT_NE(figure, sheet.figures.end());
  const auto& data = sheet.data.at("rooflines").at(0);
  EXPECT_EQ(data.at("ceilings").size(), 2u) << "FP32 and FP64 FMA peaks from labs/peaks.toml";
  EXPECT_EQ(data.at("points").size(), lab.rooflines[0].experiments.size()) << "every product has FLOPs and DRAM bytes";
  for (const auto& p : data.at("points"))
    if (p.at("label") == "tiled/double/n=4096") {
      EXPECT_EQ(p.at("bound"), "dram_bandwidth") << "left of the FP64 ridge";
    }
  EXPECT_NE(to_markdown(sheet).find(". Roofline: The products at 2048"), std::string::npos);
}

TEST(RooflineInProfileSummary, DrawnOnlyForKernelsWithFlopCounters) {
  Measurement m;
  m.program.command = {"./prog"};
  m.devices.push_back(small_gpu());
  Kernel k;
  k.name = "saxpy(float*, float const*, int)";
  k.start_ns = 0;
  k.end_ns = 1000000;
  k.metrics = {{"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum", 1e9},
               {"smsp__sass_thread_inst_executed_op_fadd_pred_on.sum", 0},
               {"smsp__sass_thread_inst_executed_op_fmul_pred_on.sum", 0},
               {"dram__bytes_read.sum", 8e9},
               {"dram__bytes_write.sum", 4e9}};
  m.kernels.push_back(k);
  Kernel copy = k;
  copy.name = "copy(float*)";
  copy.metrics = {{"dram__bytes_read.sum", 1e9}, {"dram__bytes_write.sum", 1e9}};
  m.kernels.push_back(copy);
  for (const auto& [name, value] : k.metrics) m.metrics_requested.push_back(name);

  const Sheet s = build_profile_summary(m, "", sp_peak());
  const std::string md = to_markdown(s);
  EXPECT_NE(md.find("## Roofline"), std::string::npos) << md;
  ASSERT_TRUE(s.data.contains("roofline"));
  EXPECT_EQ(s.data.at("roofline").at("points").size(), 1u) << "the copy has no FLOP counters: not drawn";
  EXPECT_EQ(s.data.at("roofline").at("points").at(0).at("flop_per_dram_byte"), 2e9 / 12e9);

  m.kernels.erase(m.kernels.begin());
  EXPECT_EQ(to_markdown(build_profile_summary(m, "", sp_peak())).find("## Roofline"), std::string::npos);
}
