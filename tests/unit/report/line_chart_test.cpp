// The sheets' line chart ([[curve]]): points in order of x, log axes, labels, levels, escaping;
// its lab data and the whole-range quantities it is drawn from.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "format.h"
#include "lab_checks.h"
#include "lab_data.h"
#include "labbook/model/error.h"
#include "line_chart.h"
#include "quantities.h"
#include "sheet_builder.h"
#include "lab_toml_fixture.h"
#include "named_quantity.h"
#include "svg_checks.h"

using namespace labbook;
using namespace labbook::report;

using labbook::test::count;

namespace {

/// The x coordinates of the first polyline's points.
std::vector<double> polyline_xs(const std::string& svg) {
  const auto at = svg.find("points=\"");
  std::vector<double> xs;
  if (at == std::string::npos) return xs;
  const auto end = svg.find('"', at + 8);
  std::string points = svg.substr(at + 8, end - at - 8);
  for (std::size_t p = 0; p < points.size();) {
    xs.push_back(std::stod(points.substr(p)));
    p = points.find(' ', p);
    if (p == std::string::npos) break;
    ++p;
  }
  return xs;
}

}  // namespace

TEST(LineChart, PointsAreDrawnInOrderOfTheParameterOnALogAxis) {
  const CurveLine line{"copy/pinned/h2d", {{1 << 20, 2e10}, {4096, 1e9}, {1 << 30, 5e10}, {65536, 8e9}}, {}};
  const std::string svg = line_chart_svg("Bandwidth", {line}, {}, {"bytes", "bytes", "effective_bandwidth", "bytes/s", true, false});
  const auto xs = polyline_xs(svg);
  ASSERT_EQ(xs.size(), 4u);
  EXPECT_TRUE(std::is_sorted(xs.begin(), xs.end())) << "sorted by x, whatever order the ranges ran in";
  // Log x: 4 KiB -> 64 KiB -> 1 MiB are equal steps (16x each), 1 MiB -> 1 GiB is 2.5 of them.
  EXPECT_NEAR(xs[1] - xs[0], xs[2] - xs[1], 0.2);
  EXPECT_NEAR(xs[3] - xs[2], 2.5 * (xs[2] - xs[1]), 0.3);
  EXPECT_EQ(count(svg, "<circle"), 4u);
  EXPECT_NE(svg.find(">bytes (log scale)</text>"), std::string::npos);
  EXPECT_NE(svg.find(">effective_bandwidth</text>"), std::string::npos);
  EXPECT_NE(svg.find(">1 MiB</text>"), std::string::npos) << "x ticks in binary bytes";
  EXPECT_NE(svg.find(" GB/s</text>"), std::string::npos) << "y ticks in GB/s";
}

TEST(LineChart, ManySizesAreLabelledAtSomeOfTheirOwnPowersOfTwo) {
  CurveLine line{"latency", {}, {}};
  for (int e = 12; e <= 31; ++e) line.measured.push_back({std::ldexp(1.0, e), 40.0 + e});   // 4 KiB .. 2 GiB
  const std::string svg = line_chart_svg("Latency", {line}, {}, {"ws", "bytes", "cycles_per_load", "cycles", true, false});
  EXPECT_EQ(count(svg, "class=\"x-tick\""), 7u) << "20 sizes, every third labelled";
  for (const char* label : {">4 KiB<", ">32 KiB<", ">256 KiB<", ">2 MiB<", ">16 MiB<", ">128 MiB<", ">1 GiB<"})
    EXPECT_NE(svg.find(label), std::string::npos) << label;
  EXPECT_EQ(svg.find("9.766 KiB"), std::string::npos) << "no decimal decades of bytes";
}

TEST(LineChart, SourceValuesAreMarkersAndGroupFiguresAreLevels) {
  const CurveLine measured{"a", {{1, 1}, {10, 2}}, {{10, 3}}};
  const CurveLine other{"b", {{1, 2}, {10, 4}}, {}};
  const std::string svg = line_chart_svg("T", {measured, other}, {{"bus (Fermi)", 8}},
                                         {"n", "", "time", "ns", true, false});
  EXPECT_EQ(count(svg, "class=\"source\""), 1u);
  EXPECT_EQ(count(svg, "class=\"level\""), 1u);
  EXPECT_EQ(count(svg, "<polyline"), 2u);
  EXPECT_NE(svg.find("bus (Fermi): 8 ns"), std::string::npos);
  EXPECT_NE(svg.find(">a source's value</text>"), std::string::npos);
}

TEST(LineChart, TextIsEscapedAndUnplottablePointsAreLeftOut) {
  const CurveLine line{"k<float&>", {{0, 5}, {2, -1}, {4, 3}}, {}};
  const std::string svg = line_chart_svg("A \"chart\" <x>", {line}, {}, {"n<>", "", "q&", "", true, true});
  EXPECT_NE(svg.find("<title>A &quot;chart&quot; &lt;x&gt;</title>"), std::string::npos);
  EXPECT_NE(svg.find(">k&lt;float&amp;&gt;</text>"), std::string::npos);
  EXPECT_NE(svg.find(">n&lt;&gt; (log scale)</text>"), std::string::npos);
  EXPECT_EQ(svg.find("k<float"), std::string::npos);
  EXPECT_EQ(count(svg, "<circle"), 1u) << "x = 0 and y < 0 cannot sit on log axes";
  EXPECT_EQ(count(svg, "<polyline"), 0u) << "one point makes no line";
}

TEST(LineChart, AChartWithoutValuesStillHasAxes) {
  const std::string svg = line_chart_svg("Empty", {{"g", {}, {}}}, {}, {"x", "", "y", "", false, false});
  EXPECT_NE(svg.find("no measured values"), std::string::npos);
  EXPECT_NE(svg.find("class=\"x-label\""), std::string::npos);
}

TEST(LineChart, TickLabelsReadAsUnits) {
  EXPECT_EQ(axis_tick_label(4096, "bytes"), "4 KiB");
  EXPECT_EQ(axis_tick_label(1073741824, "bytes"), "1 GiB");
  EXPECT_EQ(axis_tick_label(2.5e10, "bytes/s"), "25 GB/s");
  EXPECT_EQ(axis_tick_label(1500, "ns"), "1.5 µs");
  EXPECT_EQ(axis_tick_label(65536, ""), "65.5k");
}

namespace {
const std::string kSweepLab = fixture::lab_toml_head() + R"([[section]]
title = "S"
experiments = ["copy/h2d/bytes=4096"]
quantities = ["effective_bandwidth"]
)";

/// Two copy ranges in one group, a kernel range with copies, and unified-memory events.
Measurement measurement() {
  Measurement m;
  auto range = [&](const std::string& path, std::uint64_t start, std::uint64_t end) {
    Range r;
    r.path = path;
    r.name = path.substr(path.rfind('/') + 1);
    r.start_ns = start;
    r.end_ns = end;
    m.ranges.push_back(r);
  };
  range("copy/h2d", 0, 100000);
  range("copy/h2d/bytes=4096", 0, 1000);
  range("copy/h2d/bytes=1048576", 2000, 100000);
  auto copy = [&](const std::string& path, CopyKind kind, std::uint64_t bytes, std::uint64_t start, std::uint64_t end) {
    Copy c;
    c.kind = kind;
    c.bytes = bytes;
    c.start_ns = start;
    c.end_ns = end;
    c.range = path;
    m.copies.push_back(c);
  };
  copy("copy/h2d/bytes=4096", CopyKind::HostToDevice, 4096, 0, 1000);             // 4.1 GB/s
  copy("copy/h2d/bytes=1048576", CopyKind::HostToDevice, 1048576, 2000, 102000);   // 10.5 GB/s
  range("mmm/pageable", 200000, 900000);
  copy("mmm/pageable", CopyKind::HostToDevice, 8, 200000, 210000);
  copy("mmm/pageable", CopyKind::HostToDevice, 8, 210000, 230000);
  copy("mmm/pageable", CopyKind::DeviceToHost, 8, 600000, 610000);
  Kernel k;
  k.name = "mmm(double const*, double const*, double*, unsigned int)";
  k.range = "mmm/pageable";
  k.start_ns = 300000;
  k.end_ns = 460000;
  m.kernels.push_back(k);
  m.memory_events.push_back({"htod", 2 << 20, 0, 300100, 300200, 0});
  m.memory_events.push_back({"htod", 1 << 20, 0, 950000, 950100, 0});   // after the range
  m.memory_events.push_back({"gpu_page_fault", 3, 0, 300050, 300050, 0});
  // Two CPU faults: the value is the faulting instruction's address, not a count.
  m.memory_events.push_back({"cpu_page_fault", 0x7f0012345678, 0x7f00aa000000, 300060, 300060, 0});
  m.memory_events.push_back({"cpu_page_fault", 0x7f0012345678, 0x7f00aa001000, 300070, 300070, 0});
  return m;
}
}  // namespace

TEST(LineChart, CurveDataIsParsedAndChecked) {
  const LabData lab = parse_lab_data(kSweepLab + "[[curve]]\ntitle = \"C\"\nparameter = \"bytes\"\nquantity = \"effective_bandwidth\"\n"
                                            "groups = [\"copy/h2d\"]\nx_unit = \"bytes\"\nlog_y = true\n",
                                     "lab.toml");
  ASSERT_EQ(lab.curves.size(), 1u);
  EXPECT_TRUE(lab.curves[0].log_x) << "log x is the default: sweeps go in powers";
  EXPECT_TRUE(lab.curves[0].log_y);
  EXPECT_EQ(lab.curves[0].x_unit, "bytes");
  EXPECT_EQ(fixture::lab_toml_error(kSweepLab + "[[curve]]\ntitle = \"C\"\nparameter = \"bytes\"\nquantity = \"bandwith\"\ngroups = [\"g\"]\n")
                .rfind("lab.toml:20: [[curve]]: 'quantity' names unknown quantity 'bandwith'", 0),
            0u);
  EXPECT_NE(fixture::lab_toml_error(kSweepLab + "[[curve]]\ntitle = \"C\"\nparameter = \"a/b\"\nquantity = \"time\"\ngroups = [\"g\"]\n")
                .find("lab.toml:19: [[curve]]: 'parameter' must be a name"),
            std::string::npos);
  EXPECT_NE(fixture::lab_toml_error(kSweepLab + "[[curve]]\ntitle = \"C\"\nparameter = \"n\"\nquantity = \"time\"\ngroups = []\n").find("'groups' is empty"),
            std::string::npos);
  EXPECT_NE(fixture::lab_toml_error(kSweepLab + "[[check]]\nexperiments = \"*\"\nquantity = \"time\"\nat_most = 1\nat_least = 0\n")
                .find("needs exactly one of 'value', 'at_least', 'at_most'"),
            std::string::npos);
}

TEST(LineChart, SheetDrawsTheCurveWithTheSourcesValues) {
  const LabData lab = parse_lab_data(
      kSweepLab + "[[curve]]\ntitle = \"Copy <bandwidth>\"\nparameter = \"bytes\"\nquantity = \"effective_bandwidth\"\n"
             "groups = [\"copy/h2d\"]\nx_unit = \"bytes\"\n"
             "[[reference]]\nexperiment = \"copy/h2d\"\nquantity = \"effective_bandwidth\"\nvalue = 8e9\nunit = \"bytes/s\"\n"
             "gpu = \"PCIe 2.0 (Fermi)\"\ncitation = \"003_c67e0f909fb510d6.txt, « Figure 4-3 »\"\n"
             "[[reference]]\nexperiment = \"copy/h2d/bytes=4096\"\nquantity = \"effective_bandwidth\"\nvalue = 1e9\n"
             "unit = \"bytes/s\"\ngpu = \"Fermi\"\ncitation = \"003_c67e0f909fb510d6.txt, « x »\"\n",
      "lab.toml");
  const Sheet sheet = build_sheet(lab, measurement(), {});
  ASSERT_EQ(sheet.figures.size(), 1u);
  EXPECT_EQ(sheet.figures[0].file, "labX.curve-1.svg");
  const std::string& svg = sheet.figures[0].svg;
  EXPECT_EQ(polyline_xs(svg).size(), 2u);
  EXPECT_NE(svg.find("copy/h2d (PCIe 2.0): 8 GB/s"), std::string::npos);
  EXPECT_EQ(count(svg, "class=\"source\""), 1u);
  EXPECT_NE(svg.find("<title>Copy &lt;bandwidth&gt;</title>"), std::string::npos);
  EXPECT_EQ(sheet.data["curves"][0]["groups"]["copy/h2d"].size(), 2u);
}

TEST(RangeQuantities, WallTimeNvprofRowsAndUnifiedMemoryByRange) {
  const Measurement m = measurement();
  EXPECT_EQ(*range_quantity(m, "mmm/pageable", named_quantity("range_time")).value, 700000.0);
  EXPECT_EQ(*range_quantity(m, "mmm/pageable", named_quantity("kernels_calls")).value, 1.0);
  EXPECT_EQ(*range_quantity(m, "mmm/pageable", named_quantity("memcpy_htod_calls")).value, 2.0);
  EXPECT_EQ(*range_quantity(m, "mmm/pageable", named_quantity("memcpy_htod_time")).value, 30000.0);
  EXPECT_EQ(*range_quantity(m, "mmm/pageable", named_quantity("memcpy_htod_avg")).value, 15000.0);
  EXPECT_EQ(*range_quantity(m, "mmm/pageable", named_quantity("memcpy_htod_min")).value, 10000.0);
  EXPECT_EQ(*range_quantity(m, "mmm/pageable", named_quantity("memcpy_htod_max")).value, 20000.0);
  EXPECT_DOUBLE_EQ(*range_quantity(m, "mmm/pageable", named_quantity("kernels_time_pct")).value, 80.0);   // 160 of 200 µs
  EXPECT_DOUBLE_EQ(*range_quantity(m, "mmm/pageable", named_quantity("memcpy_dtoh_time_pct")).value, 5.0);
  EXPECT_EQ(*range_quantity(m, "mmm/pageable", named_quantity("um_htod_bytes")).value, double(2 << 20)) << "only events inside the range";
  EXPECT_EQ(*range_quantity(m, "mmm/pageable", named_quantity("um_gpu_page_faults")).value, 3.0);
  EXPECT_EQ(*range_quantity(m, "mmm/pageable", named_quantity("um_cpu_page_faults")).value, 2.0) << "records counted, values not summed";
  EXPECT_FALSE(range_quantity(m, "nowhere", named_quantity("range_time")).value);
  EXPECT_FALSE(range_quantity(m, "copy/h2d/bytes=4096", named_quantity("kernels_avg")).value);
  EXPECT_NEAR(*range_quantity(m, "copy/h2d/bytes=1048576", named_quantity("effective_bandwidth")).value, 1048576 / 1e-4, 1);
}

TEST(RangeQuantities, PayloadIsTheMedianNumberTheRangeCarried) {
  Measurement m;
  for (double p : {512.0, 1536.0, 1024.0}) {
    Range r;
    r.path = r.name = "pitch";
    r.start_ns = 10;
    r.end_ns = 20;
    r.payload = p;
    m.ranges.push_back(r);
  }
  Range plain;
  plain.path = plain.name = "plain";
  plain.end_ns = 5;
  m.ranges.push_back(plain);
  EXPECT_EQ(*range_quantity(m, "pitch", named_quantity("payload_bytes")).value, 1024.0);
  EXPECT_EQ(named_quantity("payload_bytes").unit(), "B");
  EXPECT_EQ(format_value(4096, "B"), "4,096 B");
  EXPECT_EQ(range_quantity(m, "pitch", named_quantity("payload_bytes")).samples.size(), 3u) << "every occurrence kept";
  const QuantityValue none = range_quantity(m, "plain", named_quantity("payload_ns"));
  EXPECT_FALSE(none.value);
  EXPECT_NE(none.missing.find("carried no payload"), std::string::npos) << none.missing;

  // A range that ran nothing on the GPU but carries a number is checked like any other.
  const LabData lab = parse_lab_data(kSweepLab + "[[check]]\nexperiments = \"pitch\"\nquantity = \"payload_bytes\"\nat_least = 2048\n",
                                     "lab.toml");
  bool checked = false;
  for (const auto& o : check_measurement(lab, m))
    if (o.text.find("pitch payload_bytes") != std::string::npos) {
      checked = true;
      EXPECT_FALSE(o.passed) << o.text << ": every payload is below 2,048 B";
    }
  EXPECT_TRUE(checked);
}

TEST(ActivityTable, RangeRowsInNvprofColumnsThenTheSourcesRows) {
  const LabData lab = parse_lab_data(
      kSweepLab + "[[activity_table]]\ntitle = \"T\"\nexperiments = [\"mmm/pageable\"]\n"
             "[[reference]]\nexperiment = \"mmm/pageable\"\nquantity = \"memcpy_htod_avg\"\nvalue = 4.7083e6\nunit = \"ns\"\n"
             "gpu = \"Fermi\"\ncitation = \"004_12112d3317679e06.txt, nvprof mmm\"\n"
             "[[reference]]\nexperiment = \"mmm/pageable\"\nquantity = \"memcpy_htod_calls\"\nvalue = 20\nunit = \"calls\"\n"
             "gpu = \"Fermi\"\ncitation = \"004_12112d3317679e06.txt, nvprof mmm\"\n",
      "lab.toml");
  const auto experiments = lab.experiments();
  EXPECT_NE(std::find(experiments.begin(), experiments.end(), "mmm/pageable"), experiments.end());
  const Sheet sheet = build_sheet(lab, measurement(), {});
  const Table* table = nullptr;
  for (const auto& b : sheet.blocks)
    if (b.kind == Block::Kind::Table && b.table.header.size() == 8 && b.table.header[1].plain() == "Time(%)") table = &b.table;
  ASSERT_NE(table, nullptr);
  ASSERT_EQ(table->rows.size(), 4u) << "kernel, HtoD, DtoH, then the source's HtoD row";
  EXPECT_EQ(table->rows[0][7].plain(), "mmm(double const*, double const*, double*, unsigned int)");
  EXPECT_EQ(table->rows[0][1].plain(), "80.00%");
  EXPECT_EQ(table->rows[0][2].plain(), "160.00us");
  EXPECT_EQ(table->rows[1][3].plain(), "2");
  EXPECT_EQ(table->rows[3][0].plain(), "source [1]");
  EXPECT_EQ(table->rows[3][3].plain(), "20");
  EXPECT_EQ(table->rows[3][4].plain(), "4.7083ms");
  EXPECT_EQ(table->rows[3][7].plain(), "[CUDA memcpy HtoD]");
}

TEST(LineChart, SizesWithABinaryUnitArePlacedByTheirBytes) {
  Measurement m = measurement();
  for (const auto& [name, bytes] : {std::pair{"1GiB", 1ull << 30}, std::pair{"4KiB", 4096ull}, std::pair{"2MiB", 2ull << 20}}) {
    Range r;
    r.path = std::string("copy/d2h/ws=") + name;
    r.name = std::string("ws=") + name;
    r.start_ns = 1000000;
    r.end_ns = 2000000;
    m.ranges.push_back(r);
    Copy c;
    c.kind = CopyKind::DeviceToHost;
    c.bytes = bytes;
    c.start_ns = 1000000;
    c.end_ns = 1500000;
    c.range = r.path;
    m.copies.push_back(c);
  }
  const LabData lab = parse_lab_data(kSweepLab + "[[curve]]\ntitle = \"C\"\nparameter = \"ws\"\nquantity = \"effective_bandwidth\"\n"
                                            "groups = [\"copy/d2h\"]\nx_unit = \"bytes\"\n",
                                     "lab.toml");
  const Sheet sheet = build_sheet(lab, m, {});
  ASSERT_EQ(sheet.figures.size(), 1u);
  const auto drawn = polyline_xs(sheet.figures[0].svg);
  ASSERT_EQ(drawn.size(), 3u) << "every size is a point";
  EXPECT_LT(drawn[0], drawn[1]);
  // 4 KiB -> 2 MiB and 2 MiB -> 1 GiB are both x512: equal steps on the log axis.
  EXPECT_NEAR(drawn[1] - drawn[0], drawn[2] - drawn[1], 0.5);
}

TEST(RangeQuantities, AHostCopyIsTimedFromItsCallToItsEndNotByItsDmaAlone) {
  Measurement m;
  // A 4 KiB pageable copy: the call starts at 0, the DMA runs from 9,000 to 10,000 ns, the
  // call returns at 11,000 ns. An async copy: the call returns at 500 ns, the copy ends at 2,000.
  Copy sync;
  sync.kind = CopyKind::HostToDevice;
  sync.bytes = 4096;
  sync.range = "copy/small";
  sync.correlation = 7;
  sync.start_ns = 9000, sync.end_ns = 10000;
  m.copies.push_back(sync);
  m.api_calls.push_back({"cudaMemcpy", 1, 7, 0, 11000});
  Copy async = sync;
  async.range = "copy/async";
  async.correlation = 8;
  async.start_ns = 1000, async.end_ns = 2000;
  m.copies.push_back(async);
  m.api_calls.push_back({"cudaMemcpyAsync", 1, 8, 0, 500});

  EXPECT_NEAR(*range_quantity(m, "copy/small", named_quantity("effective_bandwidth")).value, 4096 / 1e-6, 1);   // the DMA alone
  EXPECT_EQ(*range_quantity(m, "copy/small", named_quantity("host_time")).value, 11000.0);
  EXPECT_NEAR(*range_quantity(m, "copy/small", named_quantity("host_bandwidth")).value, 4096 / 11e-6, 1);
  EXPECT_EQ(*range_quantity(m, "copy/async", named_quantity("host_time")).value, 2000.0) << "to the copy's end, not the call's return";
  m.api_calls.clear();
  const QuantityValue unknown = range_quantity(m, "copy/small", named_quantity("host_bandwidth"));
  EXPECT_FALSE(unknown.value);
  EXPECT_NE(unknown.missing.find("no runtime call"), std::string::npos) << unknown.missing;
}

TEST(Format, SourceNumbersKeepTheirDigitsAndCountsReadAsCounts) {
  EXPECT_EQ(format_as_printed(38.13e9, "bytes/s"), "38.13 GB/s");   // format_value alone: "38.1 GB/s"
  EXPECT_EQ(format_as_printed(8e9, "bytes/s"), "8.0 GB/s");
  EXPECT_EQ(format_as_printed(286000, "ns"), "286.0 µs");
  EXPECT_EQ(format_as_printed(49.81, "%"), "49.81 %");
  EXPECT_EQ(format_value(1, "kernels"), "1 kernel");
  EXPECT_EQ(format_value(2, "kernels"), "2 kernels");
  EXPECT_EQ(format_value(28705, "instructions"), "28,705 instructions");
  EXPECT_EQ(format_value(21, "formats"), "21 formats");
  EXPECT_EQ(format_value(12, "cudaError_t"), "12 cudaError_t");
  EXPECT_EQ(format_value(2.04, "wavefronts/request"), "2.04 wavefronts/request");
  EXPECT_EQ(format_size(4096), "4 KiB");
  EXPECT_EQ(format_size(1073741824), "1 GiB");
}
